import type { PatientOrderDetails, PatientOrderSummary } from '@medlocker/core';
import { intlLocale, t } from './i18n/index.ts';

/*
 * What the patient page says about an order, in words. A few facts are copied from core rather than
 * imported, because core's modules that hold them load arktype (format.test.ts checks they agree):
 * the exemption codes and their FP10 descriptions, and the day exemption M ended.
 */

type ExemptionCode = NonNullable<PatientOrderSummary['exemptionCode']>;

/** SPEC §5's codes in the FP10's order, each with REFERENCE.md's description. */
export const exemptions: { code: ExemptionCode; label: string }[] = [
  { code: 'A', label: 'aged 60 or over, or under 16' },
  { code: 'B', label: 'aged 16, 17 or 18 and in full-time education' },
  { code: 'D', label: 'maternity exemption certificate' },
  { code: 'E', label: 'medical exemption certificate' },
  { code: 'F', label: 'prescription prepayment certificate' },
  { code: 'G', label: 'prescription exemption certificate issued by the Ministry of Defence' },
  { code: 'L', label: 'HC2 certificate' },
  { code: 'H', label: 'Income Support or income-related Employment and Support Allowance' },
  { code: 'K', label: "income-based Jobseeker's Allowance" },
  { code: 'M', label: 'Tax Credit exemption certificate' },
  { code: 'S', label: 'Pension Credit guarantee credit' },
  { code: 'U', label: 'Universal Credit' },
  { code: 'W', label: 'HRT prescription prepayment certificate' },
];

/** M is not valid for declarations made on or after 6 April 2025, 00:00 London (core's exemptionMEndsAt). */
export const exemptionMEndsAt = Date.UTC(2025, 3, 5, 23, 0);

/** The codes a patient may choose now: M only before it ended (the server refuses it after). */
export const exemptionsOffered = (now: number) => exemptions.filter((e) => e.code !== 'M' || now < exemptionMEndsAt);

/** W covers HRT items only: the page says so beside it. */
export const hrtOnly = (code: string) => code === 'W';

/** The exemption's description in the active language (the catalogs' `exemption.<code>`). */
export const exemptionLabel = (code: string) =>
  exemptions.some((e) => e.code === code) ? t(`exemption.${code as ExemptionCode}`) : code;

const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', minimumFractionDigits: 2 });

/** 990 → '£9.90'. */
export const formatPence = (pence: number) => pounds.format(pence / 100);

/** A British English formatter of London time: every date and time on the patient's page is London's. */
const inLondon = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', ...options });
/** The parts of `ms` in this format, read by type ('' for a part the format has not). */
function partsOf(format: Intl.DateTimeFormat, ms: number) {
  const parts = format.formatToParts(ms);
  return (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
}

const timeParts = inLondon({ hour: 'numeric', minute: '2-digit', hour12: true });
const dayParts = inLondon({ weekday: 'long', day: 'numeric', month: 'long' });
const yearOf = inLondon({ year: 'numeric' });

/** '3:15pm' (London time; noon is 12pm, midnight 12am). */
export function formatTime(ms: number): string {
  const get = partsOf(timeParts, ms);
  return `${get('hour')}:${get('minute')}${get('dayPeriod').replace(/\./g, '').toLowerCase()}`;
}

/** 'Friday 28 November' (London), with the year when it is not this year's: 'Friday 28 November 2025'. */
export function formatDay(ms: number, now = Date.now()): string {
  const get = partsOf(dayParts, ms);
  const year = yearOf.format(ms);
  return `${get('weekday')} ${get('day')} ${get('month')}${year === yearOf.format(now) ? '' : ` ${year}`}`;
}

/*
 * Welsh names written here, not asked of Intl: browsers with reduced locale data (Chromium builds,
 * Android) have no `cy` and would fall back to American English.
 */
const welshDays: Record<string, string> = {
  Monday: 'Dydd Llun',
  Tuesday: 'Dydd Mawrth',
  Wednesday: 'Dydd Mercher',
  Thursday: 'Dydd Iau',
  Friday: 'Dydd Gwener',
  Saturday: 'Dydd Sadwrn',
  Sunday: 'Dydd Sul',
};
/** REFERENCE.md's Welsh month names, January first. */
const welshMonths = [
  'Ionawr',
  'Chwefror',
  'Mawrth',
  'Ebrill',
  'Mai',
  'Mehefin',
  'Gorffennaf',
  'Awst',
  'Medi',
  'Hydref',
  'Tachwedd',
  'Rhagfyr',
];
const clock24 = inLondon({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const monthNumber = inLondon({ month: 'numeric' });

/** 'Dydd Gwener, 28 Tachwedd' (London). */
function welshDay(ms: number): string {
  const get = partsOf(dayParts, ms);
  return `${welshDays[get('weekday')] ?? get('weekday')}, ${get('day')} ${welshMonths[Number(monthNumber.format(ms)) - 1]}`;
}

/**
 * '3:15pm, Friday 28 November'; in Welsh '15:15, Dydd Gwener, 28 Tachwedd' (the 24-hour clock, as Welsh
 * writes it), each with the year when it is not this year's.
 */
export function formatMoment(ms: number, now = Date.now()): string {
  if (intlLocale() !== 'cy-GB') return `${formatTime(ms)}, ${formatDay(ms, now)}`;
  const year = yearOf.format(ms);
  return `${clock24.format(ms)}, ${welshDay(ms)}${year === yearOf.format(now) ? '' : ` ${year}`}`;
}

/** The order's state as a patient would put it, and how the badge looks. */
export function statusOf(order: PatientOrderSummary): { text: string; tone: 'ready' | 'waiting' | 'past' } {
  if (order.status === 'cancelled') return { text: t('status.cancelled'), tone: 'past' };
  if (order.status === 'collected') return { text: t('status.collected'), tone: 'past' };
  if (order.status === 'removed') return { text: t('status.removed'), tone: 'past' };
  if (order.expired) return { text: t('status.expired'), tone: 'past' };
  if (order.status === 'new') return { text: t('status.new'), tone: 'waiting' };
  if (order.onHold) return { text: t('status.onHold'), tone: 'waiting' };
  if (order.paymentRequired) return { text: t('status.paymentRequired'), tone: 'waiting' };
  return { text: t('status.ready'), tone: 'ready' };
}

/** The card schemes as people name them (core's cardSchemeNames). */
export const cardNames: Record<PatientOrderDetails['acceptedCards'][number], string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
};

/** 'Visa', 'Visa and Mastercard', 'Visa, Mastercard and American Express' ('Visa a Mastercard', 'Visa ac American Express' in Welsh). */
export function cardsInWords(cards: readonly PatientOrderDetails['acceptedCards'][number][]): string {
  const names = cards.map((c) => cardNames[c]);
  if (names.length <= 1) return names[0] ?? '';
  const last = names.at(-1) ?? '';
  // Welsh 'a' is 'ac' before a vowel ('Visa ac American Express').
  return t(/^[aeiouwy]/i.test(last) ? 'list.andVowel' : 'list.and', { first: names.slice(0, -1).join(', '), last });
}

/** An exemption as a sentence: 'Exemption declared: F (prescription prepayment certificate)'. */
const declared = (code: PatientOrderSummary['exemptionCode']) =>
  code ? t('payment.declaredCode', { code, label: exemptionLabel(code) }) : t('payment.declared');

/**
 * What was paid or declared, in a sentence; null when there was nothing to pay. An exemption waives the
 * prescription charge only: on an order with a retail charge too, the retail charge is still paid by card.
 */
export function paymentOf(order: PatientOrderSummary): string | null {
  switch (order.paymentStatus) {
    case 'paid': {
      const paid = t('payment.paid', { amount: formatPence(order.amountPaid) });
      return order.exemptionCode
        ? `${paid}. ${t('payment.forCharge', { declared: declared(order.exemptionCode) })}`
        : paid;
    }
    case 'exemption_declared':
      return declared(order.exemptionCode);
    case 'unpaid':
      if (order.amountDue <= 0) return null;
      return order.exemptionCode
        ? `${t('payment.toPayOther', { amount: formatPence(order.amountDue) })}. ${t('payment.forCharge', { declared: declared(order.exemptionCode) })}`
        : t('payment.toPay', { amount: formatPence(order.amountDue) });
    default:
      return null;
  }
}

/**
 * Whether the patient may declare an exemption: only an order with a prescription charge (the server
 * refuses others, 409), and only once.
 */
export const mayDeclare = (order: PatientOrderSummary) => order.prescriptionCharge > 0 && order.exemptionCode === null;
