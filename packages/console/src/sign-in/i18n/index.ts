import { areaCatalog } from '../../i18n/layer.ts';
import { messages } from './en.compiled.ts';
import type { en } from './en.ts';

/** A sign-in page's words in the active language (the layer without React: this page has none). */
export const t = areaCatalog<keyof typeof en>(messages);
