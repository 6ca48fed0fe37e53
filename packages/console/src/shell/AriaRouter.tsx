import type { ReactNode } from 'react';
import { RouterProvider } from 'react-aria-components';
import { type NavigateOptions, useHref, useNavigate } from 'react-router';
import { UnsavedChangesGuard } from './UnsavedChangesGuard.tsx';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

/**
 * Lets react-aria links (the UI kit's Link, table rows with href) navigate through react-router, and
 * asks before a link leaves a form's unsaved changes behind (UnsavedChangesGuard).
 */
export function AriaRouter({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <RouterProvider navigate={(to, options) => navigate(to, options)} useHref={useHref}>
      {children}
      <UnsavedChangesGuard />
    </RouterProvider>
  );
}
