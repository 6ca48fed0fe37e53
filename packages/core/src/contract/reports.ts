import { type } from 'arktype';
import { CollectionRecord } from '../order/order.ts';
import { CollectionFilter } from '../order/statuses.ts';
import { MonthlyBusinessStats, UsageStats } from '../stats/stats.ts';
import { Bool, IsoDate } from '../validation/general.ts';
import { reject, textInput } from '../validation/rule.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, type Method, staff, supportOnly } from './define.ts';
import { Paging } from './paging.ts';

/*
 * Reports (SPEC §7): the collection records and the monthly figures of a business. The filters are
 * defined in docs/decisions/reports.md ("Collection records"); the api's reports/repository.ts is their SQL.
 */

/** Pages of collection records are 50 long, newest collection first (keyset on collected, id). */
export const collectionRecordsPageSize = 50;
/** `getAll` answers at most this many records; a range holding more is refused (never cut short). */
export const collectionRecordsMaxAll = 10_000;
/** Pages of monthly figures are a year long: 12 months, newest first. */
export const monthlyStatsPageSize = 12;

/** A calendar month written YYYY-MM, 2000-01 to 9999-12 (what monthly_business_stats holds). */
export const YearMonth = textInput('INVALID_DATE', undefined, 7).narrow(
  (s, ctx) => /^[2-9]\d{3}-(0[1-9]|1[0-2])$/.test(s) || reject(ctx, 'INVALID_DATE'),
);

/*
 * Usage stats: the estate now (support, no businessId) or one business now. The live
 * figures are read as they stand; the analyses (SPEC §3's UsageStats) cover a period: a business's
 * last 12 London calendar months (this one included), the estate's last 7 London days (today
 * included). docs/decisions/reports.md, "Usage stats".
 */

/** A business's usage analyses cover this many London calendar months, the current one included. */
export const usageBusinessMonths = 12;
/** The estate's usage analyses cover this many London days, today included. */
export const usageEstateDays = 7;
/** The machine lists of usage stats (occupancy, offline or out of order) hold at most this many. */
export const usageMachineListMax = 50;

const usageCount = 'number.integer >= 0';
const UsageMachine = type({ machineId: Id, machineName: 'string', businessId: Id, businessName: 'string' });

export const UsageOverview = type({
  /** The business, or null for the estate. */
  businessId: type(Id).or('null'),
  /** The analyses' period: collected at or after `from` and before `to` (ms). */
  from: usageCount,
  to: usageCount,
  /** Orders not yet finished: waiting to be loaded (new) and in a locker (loaded). */
  liveOrders: { total: usageCount, awaitingLoad: usageCount, inMachines: usageCount },
  /** Active machines (not archived, not test machines): slots used by the bags inside, fullest first. */
  occupancy: {
    machineCount: usageCount,
    slotsTotal: usageCount,
    slotsUsed: usageCount,
    machines: UsageMachine.and({ slotsUsed: usageCount, numberOfSlots: usageCount }).array(),
  },
  /** Active machines offline or out of order (either: `total`), out of order first then by name. */
  machinesDown: {
    total: usageCount,
    offline: usageCount,
    outOfOrder: usageCount,
    machines: UsageMachine.and({
      online: 'boolean',
      lastSeen: type(usageCount).or('null'),
      outOfOrderSince: type(usageCount).or('null'),
    }).array(),
  },
  /** Bags in active machines to take out: their order cancelled, or expired (bags.listBagsToRemove). */
  bagsToRemove: { total: usageCount, cancelled: usageCount, expired: usageCount },
  /** Patient and staff messages in the outbox not yet sent (first tries and retries). */
  messagesWaiting: { count: usageCount, oldestCreated: type(usageCount).or('null') },
}).and(UsageStats);
export type UsageOverview = typeof UsageOverview.infer;

/*
 * The monthly report email: `reports/sendMonthlyEmail` sends a business's figures for one
 * London month (default: the one just ended) to its notification emails, with a CSV of that month and
 * the 12 before it. The `reports.monthlyEmails` job sends the same on the 1st of each month
 * (docs/decisions/reports.md, "The monthly report email").
 */
const sendMonthlyEmail = {
  input: type({
    businessId: Id,
    /** With `month`: the London month to report (default: the month before this one). */
    'year?': '2000 <= number.integer <= 9999',
    'month?': '1 <= number.integer <= 12',
  }),
  output: type({ year: 'number.integer', month: 'number.integer', sentTo: 'string[]' }),
  access: staff({ business: 'businessId' }, true),
  summary:
    "Emails a business's monthly report (one London month, default the last; a CSV of it and the 12 months before attached) to its notification emails; answers who it went to. 409 when it has none. Always allowed (a resend); audited.",
} satisfies Method;

export const reports = defineArea({
  sendMonthlyEmail,
  listCollectionStats: {
    input: type({
      businessId: Id,
      /** Every record of the range at once (the CSV export), up to {@link collectionRecordsMaxAll}. */
      'getAll?': Bool,
      ...Paging,
      /** The first day (Europe/London, inclusive) of the collection time. */
      startDate: IsoDate,
      /** The last day (Europe/London, inclusive). */
      endDate: IsoDate,
      'filterType?': CollectionFilter,
    }),
    output: type({ records: CollectionRecord.array(), nextToken: 'string | null' }),
    access: staff({ business: 'businessId' }),
    summary:
      "A business's collection records (collected orders) between two London days inclusive, newest first, 50 a page, by filter: All, Paid, PIN revealed, Exemption Declared, No Charge. getAll gives every record (at most 10,000; more is 400).",
  },
  rebuildMonthlyStats: {
    input: type({
      /** One business; every business when absent. */
      'businessId?': Id,
      /** The first London month to recompute, YYYY-MM; each business's first month with data when absent. */
      'from?': YearMonth,
      /** Every business: carry on after the one this names (the previous answer's nextToken). */
      'nextToken?': Id,
    }),
    output: type({
      businesses: 'number.integer >= 0',
      months: 'number.integer >= 0',
      changed: 'number.integer >= 0',
      /** Every business: more are left (a call stops after about 10 s); call again with it. */
      nextToken: 'string | null',
    }),
    access: supportOnly,
    summary:
      'Recomputes the monthly figures (monthly_business_stats) of one business or all from their raw data, from a month (YYYY-MM) to the current one: how many months were recomputed and how many rows changed. Running it twice changes nothing. For every business a call stops after about 10 s and answers a nextToken to carry on from.',
  },
  listBusinessStats: {
    input: type({
      businessId: Id,
      /** The page before: the token of the previous answer (it wins over lastDate). */
      ...Paging,
      /** A day (London) in the newest month to show; absent: this month. */
      'lastDate?': IsoDate,
    }),
    output: type({ stats: MonthlyBusinessStats.array(), nextToken: 'string | null' }),
    access: staff({ business: 'businessId' }),
    summary:
      "A business's monthly figures (London calendar months), newest first, 12 a page, ending at lastDate's month (default this month, never later); nextToken pages back in time, never before the month the business was added. A month with nothing in it reads as zeros.",
  },
  getUsageStats: {
    input: type({
      /** The business; support may leave it out for the whole estate, pharmacy users must give it. */
      'businessId?': Id,
    }),
    output: UsageOverview,
    access: staff({ business: 'businessId' }),
    summary:
      "The estate now (support, no businessId) or a business now: live orders, occupancy per machine, machines offline or out of order, messages waiting; and the usage stats (age ranges, channel size per month, day of week and time of day in and out of opening hours) over the business's last 12 months or the estate's last 7 days.",
  },
});
