import { type } from 'arktype';
import { stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, publicAccess } from './define.ts';

/** A tiny area that proves the dispatch path; `/healthz` and `/readyz` are plain GETs besides. */
export const health = defineArea({
  ping: {
    input: type({ 'echo?': upTo(stringLimits.echo) }),
    output: type({ ok: 'true', 'echo?': 'string', time: 'number' }),
    access: publicAccess,
    summary: 'Answers with the server time; echoes up to 100 characters.',
  },
});
