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
  // A copy: Lingui merges each area's words into the first object it holds for a language, and `source`
  // is a module's export (the compiled catalog), which no other importer should see grow.
  const i18n = setupI18n({ locale: sourceLocale, messages: { [sourceLocale]: { ...source } } });
  // The parts of the front end's words: the first catalog, then each area's as its code loads.
  type Part = { source: Messages; load?: (locale: L) => Promise<Messages> };
  const parts: Part[] = [{ source, load }];
  // Per locale, the parts already in it (a part added later is read when it is added).
  const ready = new Map<L, Set<Part>>();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const loadAll = async (locale: L) => {
    if (locale === sourceLocale) return;
    const done = ready.get(locale) ?? new Set<Part>();
    ready.set(locale, done);
    const pending = parts.filter((part) => !done.has(part));
    // The source words stand in for a part with no file in this language (never a bare id on screen);
    // copied, as Lingui keeps the first object it is given for a language and merges into it.
    for (const part of pending) i18n.load(locale, { ...part.source });
    const fetched = await Promise.all(pending.map((part) => part.load?.(locale)));
    fetched.forEach((messages, i) => {
      if (messages) i18n.load(locale, messages);
      done.add(pending[i] as Part);
    });
  };
  return {
    t: (id, values) => i18n._(id, values),
    async activate(locale) {
      await loadAll(locale);
      i18n.activate(locale);
      notify();
    },
    locale: () => i18n.locale as L,
    extend(messages, loadMore) {
      i18n.load(sourceLocale, messages);
      parts.push({ source: messages, load: loadMore });
      const active = i18n.locale as L;
      if (active !== sourceLocale) void loadAll(active).then(notify);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
