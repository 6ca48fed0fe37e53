import { Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { useHasSupportScope, useProductName } from '../state/session.ts';
import { Loading } from '../ui/Page.tsx';
import { MailboxMenuEntry } from './MailboxMenuEntry.tsx';
import { PageErrorBoundary } from './PageErrorBoundary.tsx';
import { UserPanel } from './UserPanel.tsx';

/** SPEC §2 side menu, in its order; pharmacy users see the entries not marked `support`. */
const menu = [
  { to: '/', label: 'Dashboard', end: true, support: true },
  { to: '/businesses', label: 'Businesses' },
  { to: '/groups', label: 'Groups' },
  { to: '/users', label: 'Support Users', support: true },
  { to: '/alarmMessageTemplates', label: 'Alarm Message Templates', support: true },
  { to: '/globalSettings', label: 'Global Settings', support: true },
] as const;

/**
 * The console frame: side menu and user panel, and the page in the main area. Below 768 px the
 * menu folds behind a toggle in the top bar and closes again after each navigation.
 */
export function Shell() {
  const product = useProductName();
  const support = useHasSupportScope();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  const sideRef = useRef<HTMLElement>(null);
  const firstPage = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every page change
  useEffect(() => {
    setMenuOpen(false);
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    // After choosing from the menu, focus goes to the new page's heading so a screen reader
    // announces it; a page that focused one of its own fields keeps that focus.
    const active = document.activeElement;
    if (!active || active === document.body || sideRef.current?.contains(active)) {
      document.getElementById('page-title')?.focus();
    }
  }, [location.pathname]);

  return (
    <div className="shell" data-menu-open={menuOpen || undefined}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell__topbar">
        <span className="brand">
          <span className="brand__mark" aria-hidden="true">
            +
          </span>
          {product}
        </span>
        <button
          type="button"
          className="shell__menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="side-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? 'Close menu' : 'Menu'}
        </button>
      </header>
      <aside id="side-menu" className="shell__side" ref={sideRef}>
        <div className="shell__brand brand">
          <span className="brand__mark" aria-hidden="true">
            +
          </span>
          {product}
        </div>
        <nav aria-label="Main menu" className="side-menu">
          <ul>
            {menu
              .filter((item) => support || !('support' in item))
              .map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={'end' in item} className="side-menu__link">
                    {item.label}
                  </NavLink>
                </li>
              ))}
            {support && <MailboxMenuEntry />}
          </ul>
        </nav>
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
