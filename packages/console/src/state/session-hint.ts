/**
 * Whether this browser may hold a session cookie (the cookie is HttpOnly, so the console cannot see
 * it). Without the hint the first load asks nothing and shows the login page: a new visitor's browser
 * console stays free of a 401 for auth.session. It is set when a session starts or is found (and
 * before leaving for an identity provider, which sets the cookie on the way back) and cleared when
 * the session ends. Without localStorage the console always asks, as before.
 *
 * Imports only the language layer without React: the sign-in page (src/sign-in) reads it too, without
 * the console's React app.
 */
import { t } from '../i18n/layer.ts';

/** SPEC §4/§8: the message the login page shows after a session ended by itself. */
export const sessionTimedOutMessage = () => t('session.timedOut');

const sessionHintKey = 'medlocker.session';

export function hasSessionHint(): boolean {
  try {
    return globalThis.localStorage === undefined || localStorage.getItem(sessionHintKey) === '1';
  } catch {
    return true;
  }
}

export function rememberSessionHint(on: boolean): void {
  try {
    if (on) localStorage.setItem(sessionHintKey, '1');
    else localStorage.removeItem(sessionHintKey);
  } catch {
    // Storage refused (private mode, quota): the console asks the server on every load.
  }
}

/**
 * The sign-in page is a page of its own (sign-in.html), so the console hands it the notice of a
 * session that ended by itself across a page load: kept for this tab only, read once.
 */
const noticeKey = 'medlocker.sign-in-notice';

export function handOverSignInNotice(notice: string | undefined): void {
  try {
    if (notice) sessionStorage.setItem(noticeKey, notice);
    else sessionStorage.removeItem(noticeKey);
  } catch {
    // Storage refused: the login page shows no notice.
  }
}

/** The notice handed over by the console, removed as it is read (a reload does not repeat it). */
export function takeSignInNotice(): string | undefined {
  try {
    const notice = sessionStorage.getItem(noticeKey) ?? undefined;
    sessionStorage.removeItem(noticeKey);
    return notice;
  } catch {
    return undefined;
  }
}
