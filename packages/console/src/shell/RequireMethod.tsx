import { Outlet } from 'react-router';
import { type MethodRef, useMayCall } from '../state/access.ts';
import { AccessRestricted } from './AccessRestricted.tsx';

/**
 * The pages that exist for one contract method (Add business → `createBusiness`, Edit machine →
 * `updateMachine`), as a layout route around them: Access Restricted, inside the shell, for a user
 * whose actor kind the method's access does not list, rather than a form the server can only refuse.
 */
export function RequireMethod({ method }: { method: MethodRef }) {
  return useMayCall(method) ? <Outlet /> : <AccessRestricted inShell />;
}
