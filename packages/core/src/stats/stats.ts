import { type } from 'arktype';
import { Id } from '../stamps.ts';

const count = 'number.integer >= 0';

const countsByKey = type({ '[string]': count });

/** Messages of one channel (sms, email, whatsapp) in a month: delivered or accepted, and failed. */
const ChannelCounts = type({ sent: count, failed: count });

/**
 * One business's numbers for one Europe/London calendar month (SPEC §3's fields, and the monthly report's).
 * `month` is 1–12. Money in pence. Computed from the month's order events, messages and machine
 * events by the `stats.monthly` job (docs/decisions/reports.md, "Monthly figures").
 */
export const MonthlyBusinessStats = type({
  businessId: Id,
  year: 'number.integer',
  month: '1 <= number.integer <= 12',
  /** Patient messages sent in the month, every channel (SPEC §3). */
  notificationsSent: count,
  ordersAdded: count,
  ordersLoaded: count,
  ordersCollected: count,
  ordersExpired: count,
  ordersCancelled: count,
  ordersRemoved: count,
  /** Of the month's collections, those before the order's expiry. */
  collectedWithinWindow: count,
  /** Minutes from load to collection, summed over the month's collections. */
  totalPickupMinutes: count,
  /** The median of the same; null when nothing was collected. */
  medianPickupMinutes: 'number.integer >= 0 | null',
  /** Pence taken by card in the month. */
  paidAmount: count,
  /** Exemptions declared in the month, by code ({"A": 3}). */
  exemptionsByCode: countsByKey,
  pinReveals: count,
  /** Patient messages by channel ({"sms": {"sent": 10, "failed": 1}}). */
  messagesByChannel: type({ '[string]': ChannelCounts }),
  /** Minutes the business's machines were offline or out of order, summed over machines. */
  machineDowntimeMinutes: count,
  /** Machine alarms raised in the month, by code ({"EM_0001": 2}). */
  alarmsByCode: countsByKey,
  /** Patients of the business at the start of the month. */
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
