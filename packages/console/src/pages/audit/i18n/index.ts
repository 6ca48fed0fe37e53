import { areaCatalog } from '../../../i18n/index.ts';
import { messages } from './en.compiled.ts';
import type { en } from './en.ts';

/** The audit trail page's words in the active language. */
export const t = areaCatalog<keyof typeof en>(messages);
