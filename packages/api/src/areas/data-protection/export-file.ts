import { formatDateTime, isoTime } from '@medlocker/core';
import { strToU8, zipSync } from 'fflate';
import type { PatientHoldings } from './export-repository.ts';

/*
 * The subject access file (docs/decisions/retention.md "Subject access"): data.json for a machine
 * (every row held, camelCase, times in ms since the epoch) and summary.html for the patient to read
 * (UK time), in one ZIP.
 */

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const time = (v: unknown) => (v === null || v === undefined || v === '' ? '' : formatDateTime(Number(v)));

/** The machine-readable document. */
export function subjectAccessJson(h: PatientHoldings, generatedAt: number, productName: string) {
  const orders = h.orders.map((order) => ({
    ...order,
    events: h.orderEvents.filter((e) => e.orderId === order.id),
    payments: h.payments.filter((p) => p.orderId === order.id),
    pinAttempts: h.pinAttempts.filter((p) => p.orderId === order.id),
  }));
  return {
    format: 'subject-access/1',
    product: productName,
    generatedAt,
    generatedAtIso: isoTime(generatedAt),
    business: h.business,
    patient: h.patient,
    orders,
    declarations: h.orders
      .filter((o) => o.exemptionCode !== null)
      .map((o) => ({
        orderId: o.id,
        reference: o.reference,
        exemptionCode: o.exemptionCode,
        autoExempt: o.autoExempt,
        details: o.exemptionDetails,
      })),
    pinReveals: h.orders
      .filter((o) => o.pinRevealedAt !== null)
      .map((o) => ({
        orderId: o.id,
        reference: o.reference,
        revealedAt: Number(o.pinRevealedAt),
        revealedBy: o.pinRevealedBy,
        reason: o.pinRevealReason,
      })),
    messages: h.messages,
    mobiles: h.mobiles,
    signUps: h.signUps,
    sessions: h.sessions,
    auditEntries: h.audit,
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
/** The patient's own fields, as the summary's first table lists them. */
function patientDetails(p: PatientHoldings['patient']): string[][] {
  const rows: [string, string][] = [
    ['Name', str(p.fullName)],
    ['Patient ID', str(p.displayId)],
    ['Date of birth', str(p.dateOfBirth)],
    ['Email', str(p.email)],
    ['Mobile', str(p.mobileNumber)],
    ['Address', [p.addressLine1, p.addressLine2, p.addressLine3, p.postTown, p.postcode].filter(Boolean).join(', ')],
    ['Added', time(p.created)],
    ['Deleted', time(p.deletedAt)],
    ['WhatsApp opt-in', time(p.whatsappOptInAt)],
  ];
  return rows;
}

export function subjectAccessHtml(h: PatientHoldings, generatedAt: number, productName: string): string {
  const p = h.patient;
  const ref = (orderId: unknown) => str(h.orders.find((o) => o.id === orderId)?.reference);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(`${productName}: data held about ${str(p.fullName)}`)}</title><style>${CSS}</style></head>
<body>
<h1>${escapeHtml(`Data held about ${str(p.fullName)}`)}</h1>
<p>${escapeHtml(`${h.business.name}, using ${productName}. Generated ${formatDateTime(generatedAt)} (UK time). data.json in this file holds the same data for a computer to read.`)}</p>
${table('Your details', ['Field', 'Value'], patientDetails(p))}
${table(
  'Orders',
  ['Reference', 'Created', 'Status', 'Payment', 'Collected', 'Machine'],
  h.orders.map((o) => [
    str(o.reference),
    time(o.created),
    str(o.status),
    str(o.paymentStatus),
    time(o.collected),
    str(o.machineName),
  ]),
)}
${table(
  'Declarations (prescription charge exemptions)',
  ['Order', 'Exemption code', 'Details'],
  h.orders
    .filter((o) => o.exemptionCode !== null)
    .map((o) => [str(o.reference), str(o.exemptionCode), o.exemptionDetails ? JSON.stringify(o.exemptionDetails) : '']),
)}
${table(
  'PIN reveals',
  ['Order', 'When', 'By', 'Reason'],
  h.orders
    .filter((o) => o.pinRevealedAt !== null)
    .map((o) => [str(o.reference), time(o.pinRevealedAt), str(o.pinRevealedBy), str(o.pinRevealReason)]),
)}
${table(
  'Payments',
  ['Order', 'When', 'Amount (pence)', 'Status'],
  h.payments.map((x) => [ref(x.orderId), time(x.created), str(x.amount), str(x.status)]),
)}
${table(
  'Messages sent',
  ['When', 'Channel', 'To', 'Message', 'Status'],
  h.messages.map((m) => [time(m.created), str(m.channel), str(m.recipient), str(m.body), str(m.status)]),
)}
${table(
  'Order history',
  ['When', 'Order', 'What happened'],
  h.orderEvents.map((e) => [time(e.created), str(e.orderReference), str(e.message || e.code)]),
)}
${table(
  'Online sign-ins',
  ['When', 'Order', 'Address', 'Browser'],
  h.sessions.map((s) => [time(s.created), ref(s.orderId), str(s.ip), str(s.userAgent)]),
)}
${table(
  'Who did what with your record (audit)',
  ['When', 'Who', 'Action'],
  h.audit.map((a) => [time(a.at), str(a.actorDisplay), str(a.action)]),
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
