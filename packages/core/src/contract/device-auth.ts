import { type } from 'arktype';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { type Method, supportOnly } from './define.ts';
import { Ok } from './ok.ts';

/**
 * `auth.activateDeviceAuth`: staff type the code a locker shows into the console's Pair dialog. A code
 * that is unknown, used or expired is refused with 'invalid code' (400, INVALID_CODE on userCode); an
 * archived machine with 409 'An archived machine cannot be paired' (the Pair dialog shows both as
 * 'invalid code').
 */
export const activateDeviceAuth = {
  input: type({ machineId: Id, userCode: upTo(stringLimits.userCode) }),
  output: Ok,
  access: supportOnly,
  summary: 'Pairs the locker showing this user code with a machine; its old credentials are revoked.',
} as const satisfies Method;
