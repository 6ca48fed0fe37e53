import { type } from 'arktype';
import {
  perPeriod,
  RetentionCounts,
  type RetentionField,
  RetentionOverrides,
  RetentionPolicy,
  retentionBounds,
} from '../retention/policy.ts';
import { Timestamp } from '../stamps.ts';
import { integerInRange } from '../validation/general.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, staff, supportOnly } from './define.ts';
import { byBusinessId, byPatientId, withoutInput } from './method-builders.ts';

/*
 * Retention, erasure and subject access (docs/decisions/retention.md): the product's retention policy
 * and a business's overrides, with what the next nightly run would remove; erasing a patient; and
 * everything held about a patient as one ZIP.
 */

const period = (field: RetentionField) => integerInRange(retentionBounds[field].min, retentionBounds[field].max);

/** The product's periods to change: a field left out keeps its value. */
const PolicyChanges = type(perPeriod(period)).partial();

/** A business's overrides to change: null goes back to the product's value; left out keeps it. */
const OverrideChanges = type({ businessId: Id }).and(type(perPeriod((field) => period(field).or('null'))).partial());

const ProductRetention = type({
  policy: RetentionPolicy,
  updated: Timestamp.or('null'),
  /** What the next run would remove across every business (and the entries of none). */
  preview: RetentionCounts,
});

const BusinessRetention = type({
  businessId: 'string',
  overrides: RetentionOverrides,
  product: RetentionPolicy,
  /** Each override, else the product's value: what the job applies to this business. */
  effective: RetentionPolicy,
  updated: Timestamp.or('null'),
  /** What the next run would remove for this business. */
  preview: RetentionCounts,
});

export const dataProtection = defineArea({
  getRetentionPolicy: withoutInput({
    output: ProductRetention,
    access: supportOnly,
    summary:
      "The product's retention policy (days, or years for patients) and what the next nightly run would remove, by kind.",
  }),
  updateRetentionPolicy: {
    input: PolicyChanges,
    output: ProductRetention,
    access: supportOnly,
    summary:
      'Sets periods of the retention policy (each within its bounds: orderDays 30–3650, patientYears 1–20, temperatureDays 30–3650, auditDays 365–7300, deliveryDays 7–730); fields left out are kept. Audited.',
  },
  getBusinessRetention: byBusinessId({
    output: BusinessRetention,
    access: staff({ business: 'businessId' }),
    summary: "A business's retention overrides, the policy it gets, and what the next run would remove for it.",
  }),
  updateBusinessRetention: {
    input: OverrideChanges,
    output: BusinessRetention,
    access: staff({ business: 'businessId' }, true),
    summary:
      "Sets a business's retention overrides within the product's bounds (null: the product's value); fields left out are kept. Audited.",
  },
  erasePatient: byPatientId({
    output: type({ patientId: 'string', erasedAt: Timestamp, ordersAnonymised: 'number.integer >= 0' }),
    access: staff({ patient: 'patientId' }, true),
    summary:
      'Erases a patient: personal fields removed, orders kept anonymised for the figures, sessions and codes deleted, partners told (patient.erased). Refused (409) while an order is waiting to be loaded or in a locker, or when already erased. Audited without the erased data.',
  }),
  exportPatientData: byPatientId({
    output: type({ fileName: 'string', contentType: "'application/zip'", data: 'string' }),
    access: staff({ patient: 'patientId' }, true),
    summary:
      'Everything held about a patient (subject access request) as one ZIP (base64): summary.html to read and data.json: details, orders, messages, payments, declarations, PIN reveals and the audit entries naming them. Audited.',
  }),
});
