import type { ReactNode } from 'react';
import { type MethodRef, useMayCall } from '../state/access.ts';
import { AccessRestricted } from './AccessRestricted.tsx';

/**
 * A page that exists for one contract method (Add business → `createBusiness`, Edit machine →
 * `updateMachine`): Access Restricted, inside the shell, for a user whose actor kind the method's
 * access does not list, rather than a form the server can only refuse.
 */
export function RequireMethod({ method, children }: { method: MethodRef; children: ReactNode }) {
  return useMayCall(method) ? children : <AccessRestricted inShell />;
}
