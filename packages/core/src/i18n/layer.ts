import { type Messages, setupI18n } from '@lingui/core';

/*
 * The language layer the patient page, the sign-up page and the console share: Lingui's runtime
 * (@lingui/core) over catalogs compiled at build time (scripts/compile-messages.ts turns each
 * front end's reviewed `<locale>.ts` into `<locale>.compiled.ts`), so no message is parsed in the
 * browser. The source language's catalog comes with the page; any other is fetched when chosen.
 * Imports nothing else from core, so a page that cannot afford core's runtime can use it
 * (`@medlocker/core/i18n-layer`).
 */

/** A catalog as the front ends write it: message id → ICU MessageFormat text. */
export type SourceCatalog = Record<string, string>;

export type Layer<Id extends string, L extends string> = {
  /** The message `id` in the active language, `{name}` placeholders, plurals and dates filled in. */
  t: (id: Id, values?: Record<string, unknown>) => string;
  /** Loads `locale`'s compiled catalog (once) and makes it the active language. */
  activate: (locale: L) => Promise<void>;
  locale: () => L;
  /**
   * Adds a part of the front end's words (one area's catalog, in its own chunk): `source` is its source
   * language's compiled catalog, active at once; `load` fetches its other languages, now when one is
   * active already and on every later change. Message ids are one space across the parts.
   */
  extend: (source: Messages, load?: (locale: L) => Promise<Messages>) => void;
  /** Called after each change of language; returns the unsubscribe (React's useSyncExternalStore). */
  subscribe: (listener: () => void) => () => void;
};

/**
 * A layer for one front end: `source` is its source language's compiled catalog, active at once;
 * `load` fetches another language's (a dynamic import, so a bundler splits it into its own file).
 */
export function createLayer<Id extends string, L extends string>(
  sourceLocale: L,
  source: Messages,
  load: (locale: L) => Promise<Messages>,
): Layer<Id, L> {
  const i18n = setupI18n({ locale: sourceLocale, messages: { [sourceLocale]: source } });
  const loaders: ((locale: L) => Promise<Messages>)[] = [load];
  // Per locale, the loaders already read (an area added later is read when it is added).
  const loaded = new Map<L, Set<(locale: L) => Promise<Messages>>>();
  const listeners = new Set<() => void>();
  const loadAll = async (locale: L) => {
    const done = loaded.get(locale) ?? new Set();
    loaded.set(locale, done);
    const pending = locale === sourceLocale ? [] : loaders.filter((loader) => !done.has(loader));
    const catalogs = await Promise.all(pending.map((loader) => loader(locale)));
    catalogs.forEach((messages, i) => {
      i18n.load(locale, messages);
      done.add(pending[i] as (locale: L) => Promise<Messages>);
    });
  };
  return {
    t: (id, values) => i18n._(id, values),
    async activate(locale) {
      await loadAll(locale);
      i18n.activate(locale);
      for (const listener of listeners) listener();
    },
    locale: () => i18n.locale as L,
    extend(messages, loadMore) {
      i18n.load(sourceLocale, messages);
      if (!loadMore) return;
      loaders.push(loadMore);
      const active = i18n.locale as L;
      if (active !== sourceLocale) {
        // The source words stand in until the area's own arrive (never a bare message id on screen).
        i18n.load(active, messages);
        void loadAll(active).then(() => {
          for (const listener of listeners) listener();
        });
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
