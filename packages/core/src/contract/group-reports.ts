import { type } from 'arktype';
import { MonthlyBusinessStats } from '../stats/stats.ts';
import { integerInRange } from '../validation/general.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';

/*
 * Group reports (SPEC §7): the monthly figures of a group's businesses side by side. The
 * months are London calendar months; the rows are the ones reports/listBusinessStats reads.
 */

/** How many months the comparison shows, ending at the chosen month. */
export const groupComparisonMonths = 12;
/** How many businesses one comparison may put side by side. */
export const groupComparisonMaxBusinesses = 50;

/**
 * A month's figures summed over the chosen businesses. Medians do not add up, so the totals' median
 * pickup is null; the average (totalPickupMinutes / ordersCollected) is exact.
 */
export const MonthlyTotals = MonthlyBusinessStats.omit('businessId');
export type MonthlyTotals = typeof MonthlyTotals.infer;

export const GroupBusinessMonths = type({
  businessId: Id,
  name: 'string',
  /** The 12 months, oldest first. */
  stats: MonthlyBusinessStats.array(),
});
export type GroupBusinessMonths = typeof GroupBusinessMonths.infer;

export const groupReports = defineArea({
  listMonthlyStats: {
    input: type({
      groupId: Id,
      endMonth: integerInRange(1, 12),
      endYear: integerInRange(2000, 2100),
      /** Businesses linked to the group; one not linked (or not existing) is a 404. */
      selectedBusinessIds: type(Id).array().atLeastLength(1).atMostLength(groupComparisonMaxBusinesses),
    }),
    output: type({
      /** The 12 months, oldest first. */
      months: type({ year: 'number.integer', month: '1 <= number.integer <= 12' }).array(),
      /** One entry per chosen business, in the order chosen (duplicates once). */
      businesses: GroupBusinessMonths.array(),
      /** Per month, oldest first: the chosen businesses' figures added up. */
      totals: MonthlyTotals.array(),
    }),
    access: staff({ group: 'groupId' }),
    summary:
      "The monthly figures of chosen businesses of a group side by side, for the 12 London months ending endMonth/endYear, with each month's totals. A business not linked to the group is 404.",
  },
});
