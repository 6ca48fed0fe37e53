import { Navigate, Outlet } from 'react-router';
import { useHasSupportScope } from '../state/session.ts';
import { AccessRestricted } from './AccessRestricted.tsx';

/**
 * Pages for support staff only, inside the shell: a pharmacy user sees Access Restricted there (or is
 * sent to `redirectTo`, e.g. from the dashboard to their businesses).
 */
export function SupportOnly({ redirectTo }: { redirectTo?: string }) {
  const support = useHasSupportScope();
  if (support) return <Outlet />;
  return redirectTo ? <Navigate to={redirectTo} replace /> : <AccessRestricted inShell />;
}
