import {
  hasSessionHint,
  rememberSessionHint,
  sessionTimedOutMessage,
  takeSignInNotice,
} from '../state/session-hint.ts';
import { ApiError, type ConsoleConfig, loadConfig, rpc } from './api.ts';
import { Live, type PageContext, showIn } from './context.ts';
import { h, linkStates } from './dom.ts';
import { register, resetBegin } from './email-pages.ts';
import { t } from './i18n/index.ts';
import { login } from './login.ts';
import { reset } from './reset.ts';
import { returnPathOf } from './return-path.ts';

/*
 * The sign-in pages (/auth/*), a page of their own (sign-in.html) that loads none of the console's
 * React app: a signed-out visitor downloads only these few KB. Moving between them needs no page
 * load; signing in opens the console with one (the `from` page, else the dashboard).
 */

const pages: Record<string, (ctx: PageContext) => void> = {
  '/auth/login': login,
  '/auth/register': register,
  '/auth/reset/begin': resetBegin,
  '/auth/reset': reset,
};

const config = new Live<ConsoleConfig>({ allowRegistration: false, productName: 'MedLocker' });
/** The notice of a session that ended by itself: handed over by the console, or learnt here. */
const sessionNotice = new Live<string | undefined>(takeSignInNotice());

const root = document.getElementById('root');
if (!root) throw new Error('sign-in.html has no #root element');

const product = () => config.current.productName;
const brandName = document.createTextNode(product());
const footerText = document.createTextNode(t('signIn.footer', { product: product() }));
const card = h('div', { class: 'card card--narrow' });
root.replaceChildren(
  h(
    'div',
    { class: 'auth' },
    h(
      'header',
      { class: 'auth__brand brand' },
      h('span', { class: 'brand__mark', 'aria-hidden': 'true' }, '+'),
      brandName,
    ),
    h('main', { id: 'main', class: 'auth__main' }, card),
    h('footer', { class: 'auth__footer' }, footerText),
  ),
);

let title = '';
const showTitle = () => {
  document.title = title ? `${title} | ${product()}` : product();
};

/** Draws the page of the current URL; any other /auth path is the login page, keeping its query. */
function render(): void {
  config.forget();
  sessionNotice.forget();
  config.watch(() => {
    brandName.data = product();
    footerText.data = t('signIn.footer', { product: product() });
    showTitle();
  });
  let page = pages[window.location.pathname];
  if (!page) {
    history.replaceState(null, '', `/auth/login${window.location.search}`);
    page = login;
  }
  page({
    state: (history.state as Record<string, unknown> | null) ?? null,
    navigate(path, options = {}) {
      if (options.replace) history.replaceState(options.state ?? null, '', path);
      else history.pushState(options.state ?? null, '', path);
      render();
    },
    title(text) {
      title = text;
      showTitle();
    },
    show: (...nodes) => showIn(card, nodes),
    withConfig: (fn) => config.watch(fn),
    withSessionNotice: (fn) => sessionNotice.watch(fn),
  });
}

// The sign-in pages' own links open without a page load, handing over their state (e.g. the email typed).
document.addEventListener('click', (event) => {
  const a = (event.target as Element | null)?.closest?.('a');
  if (!a || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(a.href, window.location.href);
  if (url.origin !== window.location.origin || !url.pathname.startsWith('/auth')) return;
  event.preventDefault();
  history.pushState(linkStates.get(a)?.() ?? null, '', `${url.pathname}${url.search}${url.hash}`);
  render();
});
window.addEventListener('popstate', render);

render();
void loadConfig().then((answer) => config.set(answer));
void checkSession();

/**
 * Already signed in (e.g. the back button), as support or pharmacy staff: straight on to the console.
 * Asked only when this browser may hold a session, so a first visit logs no 401. A session the server
 * says timed out shows the console's notice.
 */
async function checkSession(): Promise<void> {
  if (!hasSessionHint()) return;
  try {
    const session = await rpc('auth', 'session');
    rememberSessionHint(true);
    const signedIn = session.scopes.includes('support') || session.scopes.includes('pharmacy');
    if (signedIn && window.location.pathname === '/auth/login') {
      window.location.replace(returnPathOf(window.location.search));
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      rememberSessionHint(false);
      if (/timed out/i.test(error.message)) sessionNotice.set(sessionTimedOutMessage());
    }
  }
}
