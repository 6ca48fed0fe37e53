import { formatDateTime, isoTime } from '@medlocker/core';
import { strToU8, zipSync } from 'fflate';
import type { PatientHoldings } from './export-repository.ts';

/*
 * The subject access file (docs/decisions/retention.md "Subject access"): data.json for a machine
 * (every row held, camelCase, times in ms since the epoch) and summary.html for the patient to read
 * (UK time), in one ZIP.
 */

type Row = Record<string, unknown>;

/** Columns that hold a time (ms since the epoch; bigint columns arrive as text from PostgreSQL). */
const TIME = /(^|_)(at|created|updated|collected|expires|last_seen|first_at|last_at|cancelled_at|completed_at)$/;

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A row with camelCase keys and its times as numbers. */
function tidy(row: Row): Row {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      camel(key),
      TIME.test(key) && (typeof value === 'string' || typeof value === 'bigint') ? Number(value) : value,
    ]),
  );
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const time = (v: unknown) => (v === null || v === undefined || v === '' ? '' : formatDateTime(Number(v)));

/** The machine-readable document. */
export function subjectAccessJson(h: PatientHoldings, generatedAt: number, productName: string) {
  const orders = h.orders.map((order) => ({
    ...tidy(order),
    events: h.orderEvents.filter((e) => e.order_id === order.id).map(tidy),
    payments: h.payments.filter((p) => p.order_id === order.id).map(tidy),
    pinAttempts: h.pinAttempts.filter((p) => p.order_id === order.id).map(tidy),
  }));
  return {
    format: 'subject-access/1',
    product: productName,
    generatedAt,
    generatedAtIso: isoTime(generatedAt),
    business: h.business,
    patient: tidy(h.patient),
    orders,
    declarations: h.orders
      .filter((o) => o.exemption_code !== null)
      .map((o) => ({
        orderId: o.id,
        reference: o.reference,
        exemptionCode: o.exemption_code,
        autoExempt: o.auto_exempt,
        details: o.exemption_details,
      })),
    pinReveals: h.orders
      .filter((o) => o.pin_revealed_at !== null)
      .map((o) => ({
        orderId: o.id,
        reference: o.reference,
        revealedAt: Number(o.pin_revealed_at),
        revealedBy: o.pin_revealed_by,
        reason: o.pin_reveal_reason,
      })),
    messages: h.messages.map(tidy),
    mobiles: h.mobiles.map(tidy),
    signUps: h.signUps.map(tidy),
    sessions: h.sessions.map(tidy),
    auditEntries: h.audit.map(tidy),
  };
}

const escapeHtml = (s: string) =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

function table(caption: string, header: string[], rows: string[][]): string {
  const head = header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const body =
    rows.length === 0
      ? `<tr><td colspan="${header.length}">None</td></tr>`
      : rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<h2>${escapeHtml(caption)}</h2>\n<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

const CSS =
  'body{font-family:system-ui,sans-serif;margin:2rem;color:#111}table{border-collapse:collapse;margin-bottom:1.5rem}th,td{border:1px solid #999;padding:4px 8px;text-align:left;vertical-align:top}';

/** The readable summary: one table per kind of data, times in UK time. */
export function subjectAccessHtml(h: PatientHoldings, generatedAt: number, productName: string): string {
  const p = h.patient;
  const details: [string, unknown][] = [
    ['Name', p.full_name],
    ['Patient ID', p.display_id],
    ['Date of birth', p.date_of_birth],
    ['Email', p.email],
    ['Mobile', p.mobile_number],
    [
      'Address',
      [p.address_line1, p.address_line2, p.address_line3, p.post_town, p.postcode].filter(Boolean).join(', '),
    ],
    ['Added', time(p.created)],
    ['Deleted', time(p.deleted_at)],
    ['WhatsApp opt-in', time(p.whatsapp_opt_in_at)],
  ];
  const ref = (orderId: unknown) => str(h.orders.find((o) => o.id === orderId)?.reference);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(`${productName}: data held about ${str(p.full_name)}`)}</title><style>${CSS}</style></head>
<body>
<h1>${escapeHtml(`Data held about ${str(p.full_name)}`)}</h1>
<p>${escapeHtml(`${h.business.name}, using ${productName}. Generated ${formatDateTime(generatedAt)} (UK time). data.json in this file holds the same data for a computer to read.`)}</p>
${table(
  'Your details',
  ['Field', 'Value'],
  details.map(([k, v]) => [k, str(v)]),
)}
${table(
  'Orders',
  ['Reference', 'Created', 'Status', 'Payment', 'Collected', 'Machine'],
  h.orders.map((o) => [
    str(o.reference),
    time(o.created),
    str(o.status),
    str(o.payment_status),
    time(o.collected),
    str(o.machine_name),
  ]),
)}
${table(
  'Declarations (prescription charge exemptions)',
  ['Order', 'Exemption code', 'Details'],
  h.orders
    .filter((o) => o.exemption_code !== null)
    .map((o) => [
      str(o.reference),
      str(o.exemption_code),
      o.exemption_details ? JSON.stringify(o.exemption_details) : '',
    ]),
)}
${table(
  'PIN reveals',
  ['Order', 'When', 'By', 'Reason'],
  h.orders
    .filter((o) => o.pin_revealed_at !== null)
    .map((o) => [str(o.reference), time(o.pin_revealed_at), str(o.pin_revealed_by), str(o.pin_reveal_reason)]),
)}
${table(
  'Payments',
  ['Order', 'When', 'Amount (pence)', 'Status'],
  h.payments.map((x) => [ref(x.order_id), time(x.created), str(x.amount), str(x.status)]),
)}
${table(
  'Messages sent',
  ['When', 'Channel', 'To', 'Message', 'Status'],
  h.messages.map((m) => [time(m.created), str(m.channel), str(m.recipient), str(m.body), str(m.status)]),
)}
${table(
  'Order history',
  ['When', 'Order', 'What happened'],
  h.orderEvents.map((e) => [time(e.created), str(e.order_reference), str(e.message || e.code)]),
)}
${table(
  'Online sign-ins',
  ['When', 'Order', 'Address', 'Browser'],
  h.sessions.map((s) => [time(s.created), ref(s.order_id), str(s.ip), str(s.user_agent)]),
)}
${table(
  'Who did what with your record (audit)',
  ['When', 'Who', 'Action'],
  h.audit.map((a) => [time(a.at), str(a.actor_display), str(a.action)]),
)}
</body></html>
`;
}

/** The ZIP: summary.html and data.json. */
export function subjectAccessZip(h: PatientHoldings, generatedAt: number, productName: string): Uint8Array {
  return zipSync({
    'summary.html': strToU8(subjectAccessHtml(h, generatedAt, productName)),
    'data.json': strToU8(JSON.stringify(subjectAccessJson(h, generatedAt, productName), null, 2)),
  });
}
