import { type } from 'arktype';

/** Ids are opaque strings (time-sortable UUIDv7 in practice). */
export const Id = type('string > 0');
export type Id = typeof Id.infer;

/** Milliseconds since the epoch, as integers. */
export const Timestamp = type('number.integer >= 0');
export type Timestamp = typeof Timestamp.infer;

/**
 * Who archived something and when; `null` on the entity when it is active. The user may be null
 * when the system archived it or the user record is gone.
 */
export const ArchivedStamp = type({ at: Timestamp, userId: 'string | null', userDisplayName: 'string | null' });
export type ArchivedStamp = typeof ArchivedStamp.infer;

/** Who changed an order's state by hand (marked collected, marked removed) and when. */
export const ChangedStamp = type({ changedAt: Timestamp, changedBy: Id, changedByDisplayName: 'string' });
export type ChangedStamp = typeof ChangedStamp.infer;

/** When a stored record was made and last changed: every entity that is edited in place has both. */
export const stamps = { created: Timestamp, updated: Timestamp } as const;

/** The first fields of every record a business owns: its own id and the id of its business. */
export const businessOwned = { id: Id, businessId: Id } as const;
