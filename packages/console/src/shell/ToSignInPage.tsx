import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useSessionNotice } from '../state/session.ts';
import { handOverSignInNotice } from '../state/session-hint.ts';
import { Loading } from '../ui/Page.tsx';

/**
 * The sign-in pages (/auth/*) are a page of their own (sign-in.html, src/sign-in), without this app:
 * a link or redirect here (not logged in, Log Out) loads that page, handing it the notice of a
 * session that ended by itself.
 */
export function ToSignInPage() {
  const notice = useSessionNotice();
  const { pathname, search, hash } = useLocation();
  useEffect(() => {
    handOverSignInNotice(notice);
    window.location.replace(`${pathname}${search}${hash}`);
  }, [notice, pathname, search, hash]);
  return (
    <div className="centered">
      <Loading />
    </div>
  );
}
