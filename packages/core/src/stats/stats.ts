import { type } from 'arktype';
import { Id } from '../misc/stamps.ts';

const count = 'number.integer >= 0';

/** One business's numbers for one month (SPEC §3). `month` is 1–12. */
export const MonthlyBusinessStats = type({
  businessId: Id,
  year: 'number.integer',
  month: '1 <= number.integer <= 12',
  notificationsSent: count,
  ordersAdded: count,
  ordersCollected: count,
  totalPickupMinutes: count,
  initialPatientCount: count,
  /** Patients gained (or lost, negative) during the month. */
  patientDelta: 'number.integer',
});
export type MonthlyBusinessStats = typeof MonthlyBusinessStats.infer;

/** Collections in and out of opening hours, one number per bucket (day of week or hour). */
const HoursAnalysis = type({ duringOpeningHours: 'number[]', outOfHours: 'number[]' });

/** Usage statistics (SPEC §3). */
export const UsageStats = type({
  ageRange: {
    age18To30: count,
    age30To40: count,
    age40To50: count,
    age50To60: count,
    age60To70: count,
    age70plus: count,
  },
  /** Collections by locker channel size, keyed by month as YYYY-MM. */
  channelSizeUsage: type({ '[string]': { small: count, medium: count, large: count, other: count } }),
  dayOfWeekAnalysis: HoursAnalysis,
  timeOfDayAnalysis: HoursAnalysis,
});
export type UsageStats = typeof UsageStats.infer;
