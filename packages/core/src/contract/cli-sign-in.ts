import { type } from 'arktype';
import { stringLimits, upTo } from '../validation/string-limits.ts';
import { type Method, publicAccess, signedInSelf } from './define.ts';
import { withoutInput } from './method-builders.ts';
import { Ok } from './ok.ts';

/*
 * Signing the command line in through the browser, for users who sign in with an identity
 * provider and so have no password to type: a device-code hand-off. The cli asks for a code, the person
 * opens the console.s /cli page (signing in there, through their provider), checks the code and
 * approves; the cli, polling, then receives a session of its own.
 */

export const cliSignInMethods = {
  beginCliSignIn: withoutInput({
    output: type({
      deviceCode: 'string',
      userCode: 'string',
      verificationUrl: 'string',
      expires: 'number',
      intervalSeconds: 'number',
    }),
    access: publicAccess,
    summary: 'Starts a command-line sign-in: a code for the person to approve in the console, and one to poll with.',
  }),
  approveCliSignIn: {
    input: type({ userCode: upTo(stringLimits.userCode) }),
    output: Ok,
    access: signedInSelf,
    summary:
      "Approves the command-line sign-in showing this code, as the signed-in user ('invalid code' if unknown or expired).",
  },
  pollCliSignIn: {
    input: type({ deviceCode: upTo(stringLimits.token) }),
    output: type({ status: "'pending' | 'approved' | 'expired'", 'token?': 'string', 'expires?': 'number' }),
    access: publicAccess,
    summary: 'What became of a command-line sign-in; once approved, its session token (handed out once).',
  },
} as const satisfies Record<string, Method>;
