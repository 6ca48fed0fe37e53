import {
  type CsvCell,
  csvText,
  type EvidencePack,
  formatDateTime,
  formatTemperature,
  toIsoDate,
} from '@medlocker/core';
import { strToU8, zipSync } from 'fflate';

/*
 * The evidence pack as one ZIP (docs/decisions/reports.md "Evidence pack"): a summary a person reads, and a
 * CSV per section that a spreadsheet opens, with every temperature reading of the range. Times are
 * London wall-clock (DD-MM-YYYY HH:mm:ss) beside the exact milliseconds.
 */

/** A CSV of the pack: core's csvText (text cells quoted and defused: patients' names, barcodes and messages come from outside). */
const csv = (header: string[], rows: CsvCell[][]) => csvText(header, rows);

const when = (at: number | null) => (at === null ? '' : formatDateTime(at));

export const packFileName = (pack: EvidencePack) =>
  `evidence-${pack.machine.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'machine'}-${toIsoDate(pack.from)}-to-${toIsoDate(pack.to)}.zip`;

/**
 * The summary: what the pack covers and what it found, in sentences. `fileReadings`: how many readings
 * the file holds (fewer than the range's count when it had more than the file takes).
 */
export function summaryText(pack: EvidencePack, productName: string, fileReadings = pack.temperature.count): string {
  const t = pack.temperature;
  const held = pack.orders.filter((o) => o.pinHold).length;
  return [
    `${productName} evidence pack`,
    '',
    `Machine: ${pack.machine.name} (${pack.machine.id})`,
    `Business: ${pack.machine.businessName}`,
    `From: ${when(pack.from)}`,
    `To: ${when(pack.to)}`,
    `Generated: ${when(pack.generatedAt)} (times are UK time)`,
    '',
    `Temperature readings: ${t.count}`,
    t.count > 0
      ? `Lowest ${formatTemperature(t.min ?? 0)}, highest ${formatTemperature(t.max ?? 0)}, average ${formatTemperature(t.average ?? 0)}`
      : 'No readings in this range',
    `Readings outside ${t.band.min}–${t.band.max} °C: ${t.outsideCount}`,
    `Temperature excursions: ${t.excursions.length}`,
    ...t.excursions.map((e) => `  ${when(e.created)} ${e.message}`),
    `Alarms and outages: ${pack.alarms.length}`,
    ...pack.alarms.map((a) => `  ${when(a.created)} ${a.code} ${a.name} (${a.level}) ${a.message}`),
    '',
    `Orders inside the machine: ${pack.orders.length} (PIN held now: ${held})`,
    ...pack.orders.map(
      (o) =>
        `  ${o.reference} ${o.patientName} — in ${when(o.inAt)}, ${o.outAt === null ? 'still inside' : `out ${when(o.outAt)}`}, ${o.status}${o.pinHold ? `, PIN held by ${o.pinHold.heldByDisplayName}: ${o.pinHold.reason}` : ''}`,
    ),
    '',
    fileReadings < t.count
      ? `Files: temperature-readings.csv holds the first ${fileReadings} of the ${t.count} readings: download a shorter range for the rest; alarms.csv, orders.csv, messages.csv, actions.csv`
      : 'Files: temperature-readings.csv (every reading), alarms.csv, orders.csv, messages.csv, actions.csv',
    '',
  ].join('\r\n');
}

/**
 * The ZIP: summary.txt and the CSVs; `readings` is the range's readings, oldest first: all of them, or
 * the first evidenceFileReadingsMax of them (core; the summary says so).
 */
export function packZip(
  pack: EvidencePack,
  readings: readonly { created: number; value: number }[],
  productName: string,
): Uint8Array {
  const band = pack.temperature.band;
  const events = [...pack.temperature.excursions, ...pack.alarms].sort((a, b) => a.created - b.created);
  return zipSync({
    'summary.txt': strToU8(summaryText(pack, productName, readings.length)),
    'temperature-readings.csv': strToU8(
      csv(
        ['time', 'time_ms', 'celsius', 'outside_band'],
        readings.map((r) => [when(r.created), r.created, r.value, r.value < band.min || r.value > band.max]),
      ),
    ),
    'alarms.csv': strToU8(
      csv(
        ['time', 'time_ms', 'code', 'name', 'level', 'message', 'barcode'],
        events.map((e) => [when(e.created), e.created, e.code, e.name, e.level, e.message, e.barcode]),
      ),
    ),
    'orders.csv': strToU8(
      csv(
        [
          'reference',
          'order_id',
          'patient_name',
          'patient_id',
          'barcode',
          'status',
          'slot',
          'in',
          'out',
          'pin_held_at',
          'pin_held_by',
          'pin_hold_reason',
        ],
        pack.orders.map((o) => [
          o.reference,
          o.id,
          o.patientName,
          o.patientDisplayId,
          o.barcode,
          o.status,
          o.location,
          when(o.inAt),
          when(o.outAt),
          o.pinHold ? when(o.pinHold.heldAt) : '',
          o.pinHold?.heldByDisplayName,
          o.pinHold?.reason,
        ]),
      ),
    ),
    'messages.csv': strToU8(
      csv(
        ['order_reference', 'queued', 'sent', 'message', 'channel', 'recipient', 'status', 'text'],
        pack.orders.flatMap((o) =>
          o.messages.map((m) => [
            o.reference,
            when(m.created),
            when(m.sentAt),
            m.name,
            m.channel,
            m.recipient,
            m.status,
            m.body,
          ]),
        ),
      ),
    ),
    'actions.csv': strToU8(
      csv(
        ['time', 'time_ms', 'order_reference', 'code', 'what', 'by', 'via'],
        pack.actions.map((a) => [when(a.at), a.at, a.orderReference, a.code, a.message, a.by, a.via]),
      ),
    ),
  });
}
