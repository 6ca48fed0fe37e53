import { type } from 'arktype';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, publicAccess, staff } from './define.ts';

/**
 * A link's target: a path on the portal (`/p/...`) or an address on PUBLIC_URL. The api refuses any
 * other host, so a short link can never send a patient somewhere else (an open redirect).
 */
const Target = upTo(stringLimits.url, type('string > 0'));

/** Longest a code may be in a request: real codes are 22 characters; anything longer is simply unknown. */
export const shortUrlCodeMaxLength = 256;

export const url = defineArea({
  createUrl: {
    input: type({ target: Target, 'orderId?': Id }),
    output: type({ code: 'string', url: 'string', expiresAt: 'number' }),
    access: staff({ order: 'orderId' }),
    summary:
      'A short link `/u/{code}` on PUBLIC_URL to a portal path, expiring with the order when one is given (else after 30 days).',
  },
  getUrl: {
    input: type({ code: upTo(shortUrlCodeMaxLength) }),
    output: type({ target: 'string' }),
    access: publicAccess,
    summary: 'Where a short link leads; an unknown or expired code is a 404.',
  },
});
