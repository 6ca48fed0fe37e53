/*
 * The few pieces the sign-in pages are drawn with, as plain DOM: the same markup and class names as
 * the console's UI kit (ui/TextField, ui/Banner, ui/Button, ui/Form), so styles.css draws them alike
 * and a screen reader hears the same labels, descriptions and alerts.
 */

type Child = Node | string | false | null | undefined;
type Props = Record<string, string | boolean | undefined>;

/** An element with attributes (`true` → present, `false`/undefined → absent) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === true) el.setAttribute(name, '');
    else if (typeof value === 'string') el.setAttribute(name, value);
  }
  el.append(...children.filter((c): c is Node | string => c !== false && c !== null && c !== undefined));
  return el;
}

let ids = 0;
const nextId = (prefix: string) => `${prefix}-${++ids}`;

export type Tone = 'info' | 'success' | 'warning' | 'error';

/** A message across the form (ui/Banner): errors and warnings announced at once, the rest politely. */
export function banner(tone: Tone, ...children: Child[]): HTMLElement {
  const urgent = tone === 'error' || tone === 'warning';
  return h(
    'div',
    { class: `banner banner--${tone}`, role: urgent ? 'alert' : 'status' },
    h('div', { class: 'banner__body' }, h('div', {}, ...children)),
  );
}

/** A button of the kit; `pending` marks it busy (the form ignores a second submit meanwhile). */
export function button(label: string, variant: 'primary' | 'quiet', type: 'submit' | 'button' = 'submit') {
  const el = h('button', { type, class: `button button--${variant}` }, label);
  return {
    el,
    set pending(on: boolean) {
      el.toggleAttribute('data-pending', on);
      el.setAttribute('aria-busy', String(on));
    },
    set disabled(on: boolean) {
      el.disabled = on;
      el.toggleAttribute('data-disabled', on);
    },
  };
}

/** The history state a link hands to the page it opens (read by main.ts when it is followed). */
export const linkStates = new WeakMap<Element, () => Record<string, unknown>>();

/** A link; the sign-in page's own paths are followed without a page load (see main.ts). */
export function link(href: string, label: string, state?: () => Record<string, unknown>): HTMLAnchorElement {
  const el = h('a', { class: 'link', href }, label);
  if (state) linkStates.set(el, state);
  return el;
}

export type FieldOptions = {
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password';
  autocomplete: string;
  description?: string;
  value?: string;
  autofocus?: boolean;
};

export type Field = { el: HTMLElement; input: HTMLInputElement; error(message: string | undefined): void };

/**
 * A labelled input (ui/TextField): required, its description and error message beneath and named
 * by aria-describedby, aria-invalid while it shows an error. Typing in it clears its error.
 */
export function field(options: FieldOptions): Field {
  const id = nextId('field');
  const descriptionId = options.description ? `${id}-description` : undefined;
  const errorId = `${id}-error`;
  const input = h('input', {
    id,
    class: 'field__input',
    name: options.name,
    type: options.type ?? 'text',
    autocomplete: options.autocomplete,
    'aria-required': 'true',
    'aria-describedby': descriptionId,
    'data-autofocus': options.autofocus,
  });
  input.value = options.value ?? '';
  const el = h(
    'div',
    { class: 'field', 'data-required': true },
    h('label', { class: 'field__label', for: id }, options.label),
    input,
    options.description && h('p', { class: 'field__description', id: descriptionId }, options.description),
  );
  const error = (message: string | undefined) => {
    el.querySelector(`#${errorId}`)?.remove();
    el.toggleAttribute('data-invalid', message !== undefined);
    input.toggleAttribute('data-invalid', message !== undefined);
    const describedBy = [descriptionId, message !== undefined ? errorId : undefined].filter(Boolean).join(' ');
    if (describedBy) input.setAttribute('aria-describedby', describedBy);
    if (message === undefined) input.removeAttribute('aria-invalid');
    else {
      input.setAttribute('aria-invalid', 'true');
      el.append(h('span', { class: 'field__error', id: errorId }, message));
    }
  };
  input.addEventListener('input', () => error(undefined));
  return { el, input, error };
}

/**
 * A form (ui/Form): the message about the whole form above the fields, the server's per-field
 * messages beside the fields they name. `onSubmit` runs with the browser's own submit held back,
 * and not again while the last one is still going.
 */
export function form(fields: Field[], children: Child[], onSubmit: () => Promise<void>) {
  const body = h('div', { class: 'form__fields' }, ...fields.map((f) => f.el), ...children);
  const el = h('form', { class: 'form', novalidate: true }, body);
  let banner_: HTMLElement | undefined;
  let busy = false;
  const errors = (form: string | undefined, byName: Record<string, string> = {}) => {
    banner_?.remove();
    banner_ = form ? banner('error', form) : undefined;
    if (banner_) el.prepend(banner_);
    for (const f of fields) f.error(byName[f.input.name]);
  };
  el.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    void onSubmit().finally(() => {
      busy = false;
    });
  });
  return { el, body, errors };
}

/** Puts the keyboard in the page's first field, as the console's forms do on arrival. */
export function focusFirst(root: ParentNode): void {
  root.querySelector<HTMLElement>('[data-autofocus]')?.focus();
}
