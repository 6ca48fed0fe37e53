import { useEffect, useState } from 'react';

/**
 * The patient page's routes, in one place: a path pattern and the route it names. The api serves
 * index.html for the same prefixes (packages/api/src/http/patient-static.ts, `patientPagePrefixes`);
 * a new page (e.g. `/signup/{businessId}`) is one line here, one in routes.tsx and one prefix there.
 */
export type Route =
  | { name: 'orders' }
  | { name: 'order'; orderId: string }
  | { name: 'signUp'; businessId: string }
  | { name: 'notFound' };

const table: { pattern: RegExp; route: (match: RegExpExecArray) => Route }[] = [
  { pattern: /^\/p\/?$/, route: () => ({ name: 'orders' }) },
  { pattern: /^\/p\/([^/]+)\/?$/, route: (m) => ({ name: 'order', orderId: decodeURIComponent(m[1] ?? '') }) },
  { pattern: /^\/signup\/([^/]+)\/?$/, route: (m) => ({ name: 'signUp', businessId: decodeURIComponent(m[1] ?? '') }) },
];

/** The route a path names (notFound when none does, or the path has a broken %-escape). */
export function routeOf(path: string): Route {
  for (const { pattern, route } of table) {
    const match = pattern.exec(path);
    if (!match) continue;
    try {
      return route(match);
    } catch {
      return { name: 'notFound' };
    }
  }
  return { name: 'notFound' };
}

const listeners = new Set<() => void>();

/** Goes to another page of the app without a reload (`replace`: the back button skips this one). */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

/** The current location, re-read on navigate() and on the browser's back and forward buttons. */
const read = () => ({ path: location.pathname, search: location.search });

export function useLocation(): { path: string; search: string } {
  const [current, setCurrent] = useState(read);
  useEffect(() => {
    const update = () => setCurrent(read());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return current;
}
