import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { discardUnsaved, hasUnsavedChanges } from '../state/unsaved.ts';
import { t } from './i18n/index.ts';

/**
 * The dialog loads with the first question: the guard sits in front of the sign-in pages too, which
 * must not download the dialog kit; the forms that can be left unsaved bring it along anyway.
 */
const ConfirmDialog = lazy(() => import('../ui/Dialog.tsx').then((m) => ({ default: m.ConfirmDialog })));

/** The in-app path a plain left click on `event`'s link would open, or null when it is not one. */
function inAppTarget(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return null;
  const anchor = (event.target as Element | null)?.closest?.('a[href]');
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin) return null;
  if (url.pathname === location.pathname && url.search === location.search) return null;
  return url.pathname + url.search + url.hash;
}

/** The history entry's position, which react-router's browser history keeps in `history.state.idx`. */
const entryIndex = (): number | null => {
  const idx = (window.history.state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : null;
};

/**
 * Holds back Back and Forward while a form has unsaved changes: `onHeld(delta)` is told how far the
 * browser tried to go, after the address has been put back. Its popstate listener is added in a layout
 * effect of a descendant of the router, so before the router's own (added in the router's layout
 * effect, which runs after its children's): a held pop never reaches the router. Returns `leave(delta)`,
 * which goes there after all.
 */
function useHoldHistory(onHeld: (delta: number) => void): (delta: number) => void {
  const location = useLocation();
  const current = useRef<number | null>(null);
  const putting = useRef(false);
  const held = useRef(onHeld);
  held.current = onHeld;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the entry changes with the location
  useLayoutEffect(() => {
    current.current = entryIndex();
  }, [location]);
  useLayoutEffect(() => {
    const onPop = (event: PopStateEvent) => {
      if (putting.current) {
        // The address being put back: not a navigation.
        putting.current = false;
        event.stopImmediatePropagation();
        return;
      }
      const from = current.current;
      const to = entryIndex();
      if (!hasUnsavedChanges() || from === null || to === null || to === from) return;
      event.stopImmediatePropagation();
      putting.current = true;
      window.history.go(from - to);
      held.current(to - from);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return (delta) => window.history.go(delta);
}

/**
 * Asks before unsaved changes are lost: an in-app link (menu, breadcrumbs, a row's link) and the
 * browser's Back and Forward buttons open "Leave without saving?"; a reload, a typed address or
 * closing the tab gets the browser's own question (beforeunload). Only forms that were edited and not
 * submitted count (state/unsaved.ts). Navigation the console makes itself (after a save, a session
 * timing out) is not asked about.
 */
export function UnsavedChangesGuard() {
  const navigate = useNavigate();
  const [leavingTo, setLeavingTo] = useState<string | null>(null);
  // Back/Forward: how far the browser was asked to go, held back until the user answers.
  const [heldBy, setHeldBy] = useState<number | null>(null);
  const leave = useHoldHistory(setHeldBy);
  const asking = leavingTo !== null || heldBy !== null;

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (!hasUnsavedChanges()) return;
      const target = inAppTarget(event);
      if (target === null) return;
      // Before the router (react-aria's and react-router's links listen below the window).
      event.preventDefault();
      event.stopPropagation();
      setLeavingTo(target);
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsavedChanges()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, []);

  if (!asking) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialog
        title={t('shell.unsaved.title')}
        isOpen
        onOpenChange={(open) => {
          if (open) return;
          setLeavingTo(null);
          setHeldBy(null);
        }}
        cancelLabel={t('shell.unsaved.stay')}
        confirmLabel={t('shell.unsaved.leave')}
        onConfirm={() => {
          const to = leavingTo;
          discardUnsaved();
          setLeavingTo(null);
          setHeldBy(null);
          if (heldBy !== null) leave(heldBy);
          else if (to) navigate(to);
        }}
      >
        <p>{t('shell.unsaved.text')}</p>
      </ConfirmDialog>
    </Suspense>
  );
}
