import { type ReactNode, useEffect, useState } from 'react';
import { rpc, setProductName } from './api.ts';
import { t } from './i18n/index.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';

/*
 * The frame every patient screen shares (header, skip link, title) and the few screens and notices
 * that are the same everywhere. The forms' building blocks are in form.tsx.
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
        {t('page.skipLink')}
      </a>
      <header className="header">
        <div className="header__inner">
          <span className="header__name">{product}</span>
          <LanguageSwitch />
          {props.headerAction}
        </div>
      </header>
      <main className="main" id="main" tabIndex={-1}>
        {props.children}
      </main>
    </>
  );
}

/** A notice at the top of a screen (why the patient is asked again, new codes sent), read out when it appears. */
export function StatusNotice({ text }: { text: string }) {
  return (
    <div className="notice" role="status">
      <p>{text}</p>
    </div>
  );
}

/** A screen for a failure the patient can only retry. */
export function SomethingWentWrong({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Page title={t('page.somethingWentWrong')}>
      <h1>{t('page.somethingWentWrong')}</h1>
      <p role="alert">{message}</p>
      <button className="button" type="button" onClick={onRetry}>
        {t('page.tryAgain')}
      </button>
    </Page>
  );
}

/** A screen while the first answer is on its way: says so to screen readers too. */
export function Loading({ title }: { title: string }) {
  return (
    <Page title={title}>
      <p role="status">{t('page.loading')}</p>
    </Page>
  );
}
