import { type ReactNode, useEffect, useRef, useState } from 'react';
import { rpc, setProductName } from './api.ts';

/*
 * The few building blocks every patient screen shares: the page frame (header, skip link, title), the
 * error summary that takes focus, and a form field with its label, hint and error beside it.
 */

let productName = 'MedLocker';
let productNameAsked: Promise<string> | undefined;

/** The product's name as the server is configured (PRODUCT_NAME), for titles and the header. */
export function useProductName(): string {
  const [name, setName] = useState(productName);
  useEffect(() => {
    productNameAsked ??= rpc('auth', 'config').then(
      (config) => {
        productName = config.productName;
        setProductName(productName);
        return productName;
      },
      () => productName,
    );
    let live = true;
    void productNameAsked.then((n) => live && setName(n));
    return () => {
      live = false;
    };
  }, []);
  return name;
}

/** Whether a screen has been shown since the page loaded (the first keeps the browser's own focus). */
let shownScreen = false;

/** The frame of every screen: skip link, header, one <main> with the screen's h1, and its title. */
export function Page(props: { title: string; children: ReactNode; headerAction?: ReactNode }) {
  const product = useProductName();
  useEffect(() => {
    document.title = `${props.title} – ${product}`;
  }, [props.title, product]);
  // A new screen (not the first one a load shows) starts at its top for keyboards and screen readers,
  // unless its error summary has just taken focus.
  useEffect(() => {
    if (!props.title) return;
    if (!shownScreen) {
      shownScreen = true;
      return;
    }
    if (!document.activeElement?.closest('.error-summary')) document.getElementById('main')?.focus();
  }, [props.title]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="header">
        <div className="header__inner">
          <span className="header__name">{product}</span>
          {props.headerAction}
        </div>
      </header>
      <main className="main" id="main" tabIndex={-1}>
        {props.children}
      </main>
    </>
  );
}

export type ErrorItem = { field?: string; message: string };

/**
 * The errors of a form, listed at the top with a link to each field; it takes focus when it appears
 * (or its messages change), so a screen reader announces it and the keyboard starts from it.
 */
export function ErrorSummary({ errors }: { errors: ErrorItem[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const key = errors.map((e) => `${e.field}:${e.message}`).join('|');
  useEffect(() => {
    if (key) ref.current?.focus();
  }, [key]);
  if (errors.length === 0) return null;
  return (
    <div className="error-summary" ref={ref} tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {errors.map((e) => (
          <li key={`${e.field}:${e.message}`}>
            {e.field ? (
              <a
                href={`#${e.field}`}
                onClick={(event) => {
                  event.preventDefault();
                  document.getElementById(e.field ?? '')?.focus();
                }}
              >
                {e.message}
              </a>
            ) : (
              e.message
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A text input with its label, hint and error message, wired with aria-describedby. */
export function TextField(props: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'tel';
  inputMode?: 'numeric' | 'text' | 'tel';
  autoComplete?: string;
  className?: string;
  maxLength?: number;
  spellCheck?: boolean;
}) {
  const described = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={`form-group${props.error ? ' form-group--error' : ''}`}>
      <label className="label" htmlFor={props.id}>
        {props.label}
      </label>
      {props.hint && (
        <span className="hint" id={`${props.id}-hint`}>
          {props.hint}
        </span>
      )}
      {props.error && (
        <span className="error-message" id={`${props.id}-error`}>
          <span className="visually-hidden">Error:</span> {props.error}
        </span>
      )}
      <input
        id={props.id}
        name={props.id}
        className={`input${props.error ? ' input--error' : ''}${props.className ? ` ${props.className}` : ''}`}
        type={props.type ?? 'text'}
        value={props.value}
        inputMode={props.inputMode}
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        spellCheck={props.spellCheck}
        aria-describedby={described || undefined}
        aria-invalid={props.error ? true : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

/** A screen while the first answer is on its way: says so to screen readers too. */
export function Loading({ title }: { title: string }) {
  return (
    <Page title={title}>
      <p role="status">Loading…</p>
    </Page>
  );
}
