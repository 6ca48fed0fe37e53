import { createLayer } from '@medlocker/core/i18n-layer';
import { useSyncExternalStore } from 'react';
import { messages } from './en.compiled.ts';
import type { en } from './en.ts';

/** The console's languages: English only for now; a language is a catalog file (en.ts says how). */
export type ConsoleLocale = 'en';
export type ConsoleMessageId = keyof typeof en;

/** The console's language layer (core's i18n-layer), English active from the start. */
export const consoleLayer = createLayer<ConsoleMessageId, ConsoleLocale>('en', messages, async () => messages);

/** A console message in the active language: `t('menu.jobs')`. */
export const t = consoleLayer.t;

/** The active language, re-rendering the caller when it changes. */
export const useConsoleLocale = () => useSyncExternalStore(consoleLayer.subscribe, consoleLayer.locale);
