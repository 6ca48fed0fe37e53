import type { NotificationListItem } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type ExpressionBuilder, type Kysely, type Selectable, type SelectQueryBuilder, sql } from 'kysely';

type Db = Kysely<Database>;

/**
 * Whose notifications: a user and the businesses they reach ('all' for support). A notification
 * addressed to one user (user_id) is theirs alone; one with none is for the business's whole staff.
 */
export type Audience = { userId: string; businesses: 'all' | readonly string[] };

type From = Database & { n: Database['notifications'] };

function visibleTo<O>(q: SelectQueryBuilder<From, 'n', O>, who: Audience) {
  let scoped = q.where((eb) => eb.or([eb('n.user_id', 'is', null), eb('n.user_id', '=', who.userId)]));
  if (who.businesses !== 'all') {
    // A pharmacy user who reaches nothing sees nothing (`in ()` is not valid SQL).
    if (who.businesses.length === 0) return scoped.where(sql<boolean>`false`);
    scoped = scoped.where('n.business_id', 'in', [...who.businesses]);
  }
  return scoped;
}

const dismissedBy = (who: Audience) => (eb: ExpressionBuilder<From, 'n'>) =>
  eb
    .selectFrom('notification_dismissals as d')
    .select('d.notification_id')
    .whereRef('d.notification_id', '=', 'n.id')
    .where('d.user_id', '=', who.userId);

/**
 * A page of notifications the audience sees, newest first (ids are UUIDv7, so id order is time order),
 * each with the audience's own dismissal.
 */
export async function listNotifications(
  db: Db,
  who: Audience,
  filter: { businessId?: string; unreadOnly?: boolean; before?: string; id?: string; limit: number },
): Promise<NotificationListItem[]> {
  let q = visibleTo(
    db
      .selectFrom('notifications as n')
      .innerJoin('businesses as b', 'b.id', 'n.business_id')
      .leftJoin('notification_dismissals as d', (j) =>
        j.onRef('d.notification_id', '=', 'n.id').on('d.user_id', '=', who.userId),
      )
      .selectAll('n')
      .select([
        'b.name as business_name',
        'd.dismissed_at as my_dismissed_at',
        'd.dismissed_by_display as my_dismissed_by',
        'd.in_bulk as my_in_bulk',
      ]),
    who,
  );
  if (filter.businessId !== undefined) q = q.where('n.business_id', '=', filter.businessId);
  if (filter.id !== undefined) q = q.where('n.id', '=', filter.id);
  if (filter.unreadOnly) q = q.where((eb) => eb.not(eb.exists(dismissedBy(who)(eb))));
  if (filter.before !== undefined) q = q.where('n.id', '<', filter.before);
  const rows = await q.orderBy('n.id', 'desc').limit(filter.limit).execute();
  return rows.map((row) => toListItem(row, who));
}

type NotificationRow = Selectable<Database['notifications']> & {
  business_name: string;
  my_dismissed_at: number | null;
  my_dismissed_by: string | null;
  my_in_bulk: boolean | null;
};

function toListItem(row: NotificationRow, who: Audience): NotificationListItem {
  const details = row.details;
  return {
    id: row.id,
    businessId: row.business_id,
    businessName: row.business_name,
    userId: row.user_id,
    level: row.level,
    title: row.title,
    body: row.body,
    details: details !== null && typeof details === 'object' && !Array.isArray(details) ? details : null,
    dismissed:
      row.my_dismissed_at === null
        ? null
        : {
            dismissedAt: row.my_dismissed_at,
            dismissedBy: who.userId,
            dismissedByDisplayName: row.my_dismissed_by ?? '',
            inBulk: row.my_in_bulk ?? false,
          },
    created: row.created,
    updated: row.updated,
  };
}

/** How many the user has not dismissed. */
export async function countUnread(db: Db, who: Audience): Promise<number> {
  const row = await visibleTo(
    db.selectFrom('notifications as n').select((eb) => eb.fn.countAll<number>().as('n')),
    who,
  )
    .where((eb) => eb.not(eb.exists(dismissedBy(who)(eb))))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Records the user's dismissals; one already there is kept as it was (its first time and kind). */
export async function insertDismissal(
  db: Db,
  who: Audience,
  notificationId: string,
  stamp: { at: number; display: string },
): Promise<void> {
  await db
    .insertInto('notification_dismissals')
    .values({
      user_id: who.userId,
      notification_id: notificationId,
      dismissed_at: stamp.at,
      dismissed_by_display: stamp.display,
      in_bulk: false,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Dismisses, in one statement, everything the user sees and has not dismissed: how many. */
export async function dismissAllFor(
  db: Db,
  who: Audience,
  stamp: { at: number; display: string },
  businessId?: string,
): Promise<number> {
  let pending = visibleTo(
    db
      .selectFrom('notifications as n')
      .select((eb) => [
        eb.val(who.userId).as('user_id'),
        'n.id as notification_id',
        eb.val(stamp.at).as('dismissed_at'),
        eb.val(stamp.display).as('dismissed_by_display'),
        eb.val(true).as('in_bulk'),
      ]),
    who,
  ).where((eb) => eb.not(eb.exists(dismissedBy(who)(eb))));
  if (businessId !== undefined) pending = pending.where('n.business_id', '=', businessId);
  const result = await db
    .insertInto('notification_dismissals')
    .columns(['user_id', 'notification_id', 'dismissed_at', 'dismissed_by_display', 'in_bulk'])
    .expression(pending)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * Everyone a daily digest may go to: active staff with a Support role (every business) or with
 * Business and Group roles (their businesses, a group's through businesses.group_id).
 */
export async function digestAudiences(
  db: Db,
  userId?: string,
): Promise<(Audience & { email: string; givenName: string })[]> {
  let query = db
    .selectFrom('user_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('businesses as gb', (j) => j.onRef('gb.group_id', '=', 'r.resource_id').on('r.name', '=', 'Group'))
    .select([
      'u.id',
      'u.email',
      'u.given_name',
      'r.name',
      'r.resource_type',
      'r.resource_id',
      'gb.id as group_business_id',
    ])
    .where('r.name', 'in', ['Support', 'Business', 'Group']);
  if (userId !== undefined) query = query.where('u.id', '=', userId);
  const rows = await query.execute();
  const byUser = new Map<string, Audience & { email: string; givenName: string; set: Set<string> | 'all' }>();
  for (const r of rows) {
    const entry = byUser.get(r.id) ?? {
      userId: r.id,
      email: r.email,
      givenName: r.given_name,
      businesses: [],
      set: new Set<string>(),
    };
    byUser.set(r.id, entry);
    if (r.name === 'Support') entry.set = 'all';
    if (entry.set === 'all') continue;
    if (r.name === 'Business' && r.resource_type === 'business' && r.resource_id) entry.set.add(r.resource_id);
    if (r.group_business_id) entry.set.add(r.group_business_id);
  }
  return [...byUser.values()].map(({ set, ...a }) => ({ ...a, businesses: set === 'all' ? 'all' : [...set] }));
}
