import { type } from 'arktype';

/*
 * How long the product keeps what it holds (docs/decisions/retention.md): one product-wide policy that
 * support sets, and per business overrides within the same bounds. The database checks the same bounds
 * (migration 0046).
 */

/** The bounds and default of each period, in its own unit (the name says which). */
export const retentionBounds = {
  /** Collected, cancelled and removed (expired) orders with their messages: anonymised after. */
  orderDays: { min: 30, max: 3650, default: 730 },
  /** Patients with no order (and not added) for this many years: erased. */
  patientYears: { min: 1, max: 20, default: 3 },
  /** A locker's temperature readings: deleted after. */
  temperatureDays: { min: 30, max: 3650, default: 730 },
  /** Audit entries: deleted after (never fewer than 365 days: the database refuses). */
  auditDays: { min: 365, max: 7300, default: 2190 },
  /** Delivery attempts: webhook deliveries and their attempts, events, staff emails: deleted after. */
  deliveryDays: { min: 7, max: 730, default: 90 },
} as const;

export type RetentionField = keyof typeof retentionBounds;
export const retentionFields = Object.keys(retentionBounds) as RetentionField[];

export const RetentionPolicy = type({
  orderDays: 'number.integer',
  patientYears: 'number.integer',
  temperatureDays: 'number.integer',
  auditDays: 'number.integer',
  deliveryDays: 'number.integer',
});
export type RetentionPolicy = typeof RetentionPolicy.infer;

export const defaultRetentionPolicy: RetentionPolicy = {
  orderDays: retentionBounds.orderDays.default,
  patientYears: retentionBounds.patientYears.default,
  temperatureDays: retentionBounds.temperatureDays.default,
  auditDays: retentionBounds.auditDays.default,
  deliveryDays: retentionBounds.deliveryDays.default,
};

/** A business's overrides: null keeps the product's value. */
export const RetentionOverrides = type({
  orderDays: 'number.integer | null',
  patientYears: 'number.integer | null',
  temperatureDays: 'number.integer | null',
  auditDays: 'number.integer | null',
  deliveryDays: 'number.integer | null',
});
export type RetentionOverrides = typeof RetentionOverrides.infer;

/** What a run of the retention job does (or would do), by kind. */
export const RetentionCounts = type({
  /** Finished orders anonymised (their messages emptied, their patient sessions and codes deleted). */
  orders: 'number.integer >= 0',
  /** Patients erased for having no order within the period. */
  patients: 'number.integer >= 0',
  temperatureReadings: 'number.integer >= 0',
  auditEntries: 'number.integer >= 0',
  /** Webhook deliveries, their attempts and events, and staff emails. */
  deliveries: 'number.integer >= 0',
});
export type RetentionCounts = typeof RetentionCounts.infer;

export const emptyRetentionCounts = (): RetentionCounts => ({
  orders: 0,
  patients: 0,
  temperatureReadings: 0,
  auditEntries: 0,
  deliveries: 0,
});

/** The effective policy of a business: each override, else the product's value. */
export const effectiveRetention = (
  product: RetentionPolicy,
  overrides: RetentionOverrides | null,
): RetentionPolicy => ({
  orderDays: overrides?.orderDays ?? product.orderDays,
  patientYears: overrides?.patientYears ?? product.patientYears,
  temperatureDays: overrides?.temperatureDays ?? product.temperatureDays,
  auditDays: overrides?.auditDays ?? product.auditDays,
  deliveryDays: overrides?.deliveryDays ?? product.deliveryDays,
});

/** The words each kind has in the console and the CLI. */
export const retentionKindLabels: Record<keyof RetentionCounts, string> = {
  orders: 'Finished orders to anonymise',
  patients: 'Patients to erase (no recent order)',
  temperatureReadings: 'Temperature readings to delete',
  auditEntries: 'Audit entries to delete',
  deliveries: 'Delivery attempts to delete',
};
