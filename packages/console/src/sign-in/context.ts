import type { ConsoleConfig } from './api.ts';
import { focusFirst } from './dom.ts';

/** What a sign-in page is given: where it is, how to move on, and what may still arrive. */
export type PageContext = {
  /** The history entry's state (e.g. `{ email, forced }` for reset-begin), null when none. */
  state: Record<string, unknown> | null;
  /** To another sign-in page without a page load (pushState), with the state it is handed. */
  navigate(path: string, options?: { replace?: boolean; state?: Record<string, unknown> }): void;
  /** The document title: `{title} | {product}`. */
  title(text: string): void;
  /** Replaces what the card shows and puts the keyboard in its first field. */
  show(...nodes: Node[]): void;
  /** Runs `fn` with the console's config now and again when auth.config answers. */
  withConfig(fn: (config: ConsoleConfig) => void): void;
  /** Runs `fn` with the notice of a session that ended by itself, now and when one is learnt. */
  withSessionNotice(fn: (notice: string | undefined) => void): void;
};

/** A value that may change later; watchers of a page that has been left are dropped. */
export class Live<T> {
  private watchers: ((value: T) => void)[] = [];
  constructor(private value: T) {}
  get current(): T {
    return this.value;
  }
  set(value: T): void {
    this.value = value;
    for (const watcher of this.watchers) watcher(value);
  }
  watch(fn: (value: T) => void): void {
    this.watchers.push(fn);
    fn(this.value);
  }
  /** Called on each page change: the last page's watchers go. */
  forget(): void {
    this.watchers = [];
  }
}

/** Shows `nodes` in `card`, with the keyboard in the first field marked data-autofocus. */
export function showIn(card: HTMLElement, nodes: Node[]): void {
  card.replaceChildren(...nodes);
  focusFirst(card);
}
