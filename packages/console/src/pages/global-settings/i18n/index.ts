import { areaCatalog } from '../../../i18n/index.ts';
import { messages } from './en.compiled.ts';
import type { en } from './en.ts';

/** A global settings page's words in the active language. */
export const t = areaCatalog<keyof typeof en>(messages);
