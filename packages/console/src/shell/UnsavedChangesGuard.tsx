import { useEffect, useState } from 'react';
import { useBlocker, useNavigate } from 'react-router';
import { discardUnsaved, hasUnsavedChanges } from '../state/unsaved.ts';
import { ConfirmDialog } from '../ui/Dialog.tsx';

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
  // Back/Forward (a POP): the router puts the address back and waits for proceed or reset.
  const history = useBlocker(({ historyAction }) => historyAction === 'POP' && hasUnsavedChanges());
  const asking = leavingTo !== null || history.state === 'blocked';

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

  return (
    <ConfirmDialog
      title="Leave without saving?"
      isOpen={asking}
      onOpenChange={(open) => {
        if (open) return;
        setLeavingTo(null);
        if (history.state === 'blocked') history.reset();
      }}
      cancelLabel="Stay on this page"
      confirmLabel="Leave without saving"
      onConfirm={() => {
        const to = leavingTo;
        discardUnsaved();
        setLeavingTo(null);
        if (history.state === 'blocked') history.proceed();
        else if (to) navigate(to);
      }}
    >
      <p>The changes on this page have not been saved.</p>
    </ConfirmDialog>
  );
}
