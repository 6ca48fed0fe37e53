import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useHasSupportScope } from '../state/session.ts';
import { AccessRestricted } from './AccessRestricted.tsx';

/**
 * Pages for support staff only, inside the shell: a pharmacy user sees Access Restricted there, or
 * `otherwise`: their own page at the same address (the dashboard).
 */
export function SupportOnly({ otherwise }: { otherwise?: ReactNode }) {
  const support = useHasSupportScope();
  if (support) return <Outlet />;
  return otherwise ?? <AccessRestricted inShell />;
}
