import type { Messages } from '@lingui/core';
import { createLayer } from '@medlocker/core/i18n-layer';
import { messages } from './en.compiled.ts';
import type { en } from './en.ts';

/*
 * The console's language layer without React, so the sign-in page (plain DOM, its own small bundle)
 * shares it: index.ts adds React's hook for the console's components.
 */

/** The console's languages: English only for now; a language is a catalog file (en.ts says how). */
export type ConsoleLocale = 'en';
export type ConsoleMessageId = keyof typeof en;

/** The console's language layer (core's i18n-layer), English active from the start. */
export const consoleLayer = createLayer<ConsoleMessageId, ConsoleLocale>('en', messages, async () => messages);

/** A console message in the active language: `t('menu.jobs')`. */
export const t = consoleLayer.t;

/**
 * An area's words (its folder's `i18n/en.ts`, compiled beside it), added to the layer when the area's
 * code loads, so a route's words come with its chunk and the sign-in page carries none of the others.
 * Returns the area's `t`, typed by its catalog's ids: `const t = areaCatalog<keyof typeof en>(messages)`.
 * Ids are one space across the console (`<area>.<what>`); catalogs.test.ts refuses an id twice.
 * Another language: a `<locale>.ts` beside each `en.ts`, and a loader here (`load`).
 */
export function areaCatalog<Id extends string>(
  compiled: Messages,
  load?: (locale: ConsoleLocale) => Promise<Messages>,
): (id: Id, values?: Record<string, unknown>) => string {
  consoleLayer.extend(compiled, load);
  return consoleLayer.t as unknown as (id: Id, values?: Record<string, unknown>) => string;
}
