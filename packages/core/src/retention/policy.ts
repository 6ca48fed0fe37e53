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

/**
 * One value for each period, by its field, so the schemas and values below list the periods once (in
 * `retentionBounds`): a new period is one more bound there.
 */
export const perPeriod = <V>(value: (field: RetentionField) => V) =>
  Object.fromEntries(retentionFields.map((field) => [field, value(field)])) as { [F in RetentionField]: V };

/** The product's retention policy: each period, in its own unit. */
export const RetentionPolicy = type(perPeriod(() => 'number.integer' as const));
export type RetentionPolicy = typeof RetentionPolicy.infer;

export const defaultRetentionPolicy: RetentionPolicy = perPeriod((field) => retentionBounds[field].default);

/** A business's overrides: null keeps the product's value. */
export const RetentionOverrides = type(perPeriod(() => 'number.integer | null' as const));
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
export const effectiveRetention = (product: RetentionPolicy, overrides: RetentionOverrides | null): RetentionPolicy =>
  perPeriod((field) => overrides?.[field] ?? product[field]);

/** The words each kind has in the console and the CLI. */
export const retentionKindLabels: Record<keyof RetentionCounts, string> = {
  orders: 'Finished orders to anonymise',
  patients: 'Patients to erase (no recent order)',
  temperatureReadings: 'Temperature readings to delete',
  auditEntries: 'Audit entries to delete',
  deliveries: 'Delivery attempts to delete',
};
