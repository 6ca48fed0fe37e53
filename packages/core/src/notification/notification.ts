import { type } from 'arktype';
import { Level } from '../errors/machine-alerts.ts';
import { businessOwned, Id, stamps, Timestamp } from '../stamps.ts';

/** A notification to a business's staff (SPEC §3); `dismissed` null until someone dismisses it. */
export const Notification = type({
  ...businessOwned,
  userId: 'string | null',
  level: Level,
  title: 'string',
  body: 'string',
  details: 'Record<string, unknown> | null',
  dismissed: type({
    dismissedAt: Timestamp,
    dismissedBy: Id,
    dismissedByDisplayName: 'string',
    /** True when dismissed with "dismiss all". */
    inBulk: 'boolean',
  }).or('null'),
  ...stamps,
});
export type Notification = typeof Notification.infer;
