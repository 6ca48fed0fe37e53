import { type } from 'arktype';
import { Id, Timestamp } from '../stamps.ts';

/** A short link sent in patient messages (SPEC §3). */
export const ShortUrl = type({ id: Id, targetURL: 'string', created: Timestamp, updated: Timestamp });
export type ShortUrl = typeof ShortUrl.infer;
