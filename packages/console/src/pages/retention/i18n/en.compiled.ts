// Written by scripts/compile-messages.ts from en.ts: edit that, then run it again.
import type { Messages } from '@lingui/core';

export const messages: Messages = {
  'retention.period.orderDays': ['Keep collected, cancelled and removed orders with their messages for (days)'],
  'retention.period.patientYears': ['Erase patients with no order for (years)'],
  'retention.period.temperatureDays': ['Keep temperature readings for (days)'],
  'retention.period.auditDays': ['Keep audit entries for (days)'],
  'retention.period.deliveryDays': ['Keep delivery attempts (webhooks, staff emails) for (days)'],
  'retention.range': [['min'], ' to ', ['max'], '.'],
  'retention.rangeOrProduct': [['min'], ' to ', ['max'], "; blank: the product's ", ['product'], '.'],
  'retention.nextRun': ['The next run would remove'],
  'retention.business.title': ['Retention'],
  'retention.business.lead': [
    "How long this business keeps what it holds. Leave a period blank to follow the product's policy. Each night what is past its period is removed, or anonymised where the monthly figures need the row.",
  ],
  'retention.business.saved': ['Retention saved.'],
  'retention.business.save': ['Save retention'],
  'retention.product.title': ['Retention policy'],
  'retention.product.lead': [
    'Each night what is past its period is removed, or anonymised where the monthly figures need the row. A business may set its own periods in its settings.',
  ],
  'retention.product.saved': ['Retention policy saved.'],
  'retention.product.save': ['Save retention policy'],
};
