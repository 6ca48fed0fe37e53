import { type } from 'arktype';
import { CollectionRecord } from '../order/order.ts';
import { CollectionFilter } from '../order/statuses.ts';
import { Bool, IsoDate } from '../validation/general.ts';
import { Id, NextToken } from '../validation/string-limits.ts';
import { defineArea, type Method, staff } from './define.ts';

/*
 * Reports (issue 21, SPEC §7). This slice: the collection records of a business. The filters are
 * defined in docs/DECISIONS.md ("Collection records"); the api's reports/repository.ts is their SQL.
 */

/** Pages of collection records are 50 long, newest collection first (keyset on collected, id). */
export const collectionRecordsPageSize = 50;
/** `getAll` answers at most this many records; a range holding more is refused (never cut short). */
export const collectionRecordsMaxAll = 10_000;

/*
 * The monthly report email (issue 21): `reports/sendMonthlyEmail` sends a business's figures for one
 * London month (default: the one just ended) to its notification emails, with a CSV of that month and
 * the 12 before it. The `reports.monthlyEmails` job sends the same on the 1st of each month
 * (docs/DECISIONS.md, "The monthly report email").
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
      'nextToken?': NextToken,
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
});
