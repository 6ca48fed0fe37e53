/*
 * Text a provider (or whoever crafts the callback URL) chooses: the callback's `error` and
 * `error_description`, and error messages that quote them. Before it reaches the audit log or the
 * log it is cut to a bounded length and stripped of control characters (C0, DEL, C1, the bidirectional
 * overrides and isolates that make a log line read other than it is) and of lone surrogates.
 */

export const UNTRUSTED_TEXT_LIMIT = 200;

const controls = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
const loneSurrogates = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** At most `limit` characters (then an ellipsis), each control character a space. */
export function loggable(text: string, limit = UNTRUSTED_TEXT_LIMIT): string {
  const cleaned = text.replace(controls, ' ').replace(loneSurrogates, '\uFFFD');
  if (cleaned.length <= limit) return cleaned;
  // Not cut inside a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(cleaned.charAt(limit - 1)) ? limit - 1 : limit;
  return `${cleaned.slice(0, end)}…`;
}
