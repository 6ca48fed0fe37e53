import { useSyncExternalStore } from 'react';
import { consoleLayer } from './layer.ts';

export { areaCatalog, type ConsoleLocale, type ConsoleMessageId, consoleLayer, t } from './layer.ts';

/** The active language, re-rendering the caller when it changes. */
export const useConsoleLocale = () => useSyncExternalStore(consoleLayer.subscribe, consoleLayer.locale);
