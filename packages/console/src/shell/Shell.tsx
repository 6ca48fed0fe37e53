import { Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { type ConsoleMessageId, t } from '../i18n/index.ts';
import { useHasSupportScope, useProductName } from '../state/session.ts';
import { Loading } from '../ui/Page.tsx';
import { MailboxMenuEntry } from './MailboxMenuEntry.tsx';
import { NotificationBell } from './NotificationBell.tsx';
import { OrderSearch } from './OrderSearch.tsx';
import { PageErrorBoundary } from './PageErrorBoundary.tsx';
import { PharmacyMenu } from './PharmacyMenu.tsx';
import { UserPanel } from './UserPanel.tsx';

/** SPEC §2 side menu of support staff, in its order; pharmacy users have their own (PharmacyMenu). */
const menu = [
  { to: '/', label: 'menu.dashboard', end: true },
  { to: '/businesses', label: 'menu.businesses' },
  { to: '/groups', label: 'menu.groups' },
  { to: '/users', label: 'menu.supportUsers' },
  { to: '/alarmMessageTemplates', label: 'menu.alarmMessageTemplates' },
  { to: '/globalSettings', label: 'menu.globalSettings' },
  { to: '/identityProviders', label: 'menu.identityProviders' },
  { to: '/jobs', label: 'menu.jobs' },
  { to: '/audit', label: 'menu.audit' },
] as const satisfies readonly { to: string; label: ConsoleMessageId; end?: boolean }[];

/**
 * After each page change, the menu closes (onNavigated) and focus moves to the new page's heading when
 * it was left on the menu or top bar, so a screen reader announces the page.
 */
function useFocusAfterNavigation(pathname: string, onNavigated: () => void) {
  const sideRef = useRef<HTMLElement>(null);
  const topRef = useRef<HTMLElement>(null);
  const firstPage = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every page change
  useEffect(() => {
    onNavigated();
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    // After choosing from the menu (or the bell), focus goes to the new page's heading so a screen reader
    // announces it; a page that focused one of its own fields keeps that focus. The top bar's order finder
    // keeps it too: the page loads lazily, so this runs a moment after the choice, when the next search
    // (or scan) may already be on its way into the finder, and taking focus then closed its list and lost
    // the keys typed (the finder announces the order it opened instead).
    const active = document.activeElement;
    const inFinder = active instanceof Element && active.closest('.order-search') !== null;
    const fromTop = topRef.current?.contains(active) && !inFinder;
    if (!active || active === document.body || sideRef.current?.contains(active) || fromTop) {
      document.getElementById('page-title')?.focus();
    }
  }, [pathname]);
  return { sideRef, topRef };
}

/** Support staff's side menu. */
function SupportMenu() {
  return (
    <nav aria-label={t('menu.main')} className="side-menu">
      <ul>
        {menu.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={'end' in item} className="side-menu__link">
              {t(item.label)}
            </NavLink>
          </li>
        ))}
        <MailboxMenuEntry />
      </ul>
    </nav>
  );
}

/**
 * The console frame: the top bar with the order finder, the side menu (support's, or the pharmacy
 * user's with their business) and user panel, and the page in the main area. Below 768 px the menu
 * folds behind a toggle in the top bar and closes again after each navigation.
 */
export function Shell() {
  const product = useProductName();
  const support = useHasSupportScope();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  const { sideRef, topRef } = useFocusAfterNavigation(location.pathname, () => setMenuOpen(false));

  return (
    <div className="shell" data-menu-open={menuOpen || undefined}>
      <a className="skip-link" href="#main">
        {t('menu.skipToContent')}
      </a>
      <header className="shell__topbar" ref={topRef}>
        <span className="brand shell__topbar-brand">
          <span className="brand__mark" aria-hidden="true">
            +
          </span>
          <span className="shell__topbar-name">{product}</span>
        </span>
        <OrderSearch />
        <NotificationBell />
        <button
          type="button"
          className="shell__menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="side-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? t('menu.close') : t('menu.open')}
        </button>
      </header>
      <aside id="side-menu" className="shell__side" ref={sideRef}>
        <div className="shell__brand brand">
          <span className="brand__mark" aria-hidden="true">
            +
          </span>
          {product}
        </div>
        {support ? <SupportMenu /> : <PharmacyMenu />}
        <UserPanel />
      </aside>
      <main id="main" className="shell__main" tabIndex={-1}>
        <PageErrorBoundary resetKey={location.pathname}>
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </main>
    </div>
  );
}
