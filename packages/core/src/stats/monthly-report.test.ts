import { describe, expect, it } from 'bun:test';
import Papa from 'papaparse';
import { formatMonth, londonMonthOf } from '../format/date.ts';
import { countsByCodeText, isoMonth, monthlyReportColumns, monthlyReportCsv } from './monthly-report.ts';
import type { MonthlyBusinessStats } from './stats.ts';

describe('the monthly report', () => {
  it('names a month as people read it, and as YYYY-MM', () => {
    expect(formatMonth(2026, 10)).toBe('October 2026');
    expect(formatMonth(2027, 1)).toBe('January 2027');
    expect(isoMonth(2026, 4)).toBe('2026-04');
  });

  it('reads the London month of a moment, not the UTC one', () => {
    // 00:30 BST on 1 October is 23:30 UTC on 30 September.
    expect(londonMonthOf(Date.parse('2026-09-30T23:30:00Z'))).toEqual({ year: 2026, month: 10 });
    // In GMT, London and UTC agree: 23:30 on 31 October is still October.
    expect(londonMonthOf(Date.parse('2026-10-31T23:30:00Z'))).toEqual({ year: 2026, month: 10 });
    expect(londonMonthOf(Date.parse('2026-12-31T23:59:59Z'))).toEqual({ year: 2026, month: 12 });
    expect(londonMonthOf(Date.parse('2027-01-01T00:00:00Z'))).toEqual({ year: 2027, month: 1 });
  });

  it('writes counts by code in code order, leaving out zeros', () => {
    expect(countsByCodeText({ EM_0003: 1, EM_0001: 2, EM_0009: 0 })).toBe('EM_0001: 2; EM_0003: 1');
    expect(countsByCodeText({ F: 2, A: 1 }, ' ')).toBe('A 1; F 2');
    expect(countsByCodeText({})).toBe('');
  });

  it('has one column per figure, every exemption code among them', () => {
    expect(monthlyReportColumns).toHaveLength(38);
    expect(monthlyReportColumns.filter((c) => c.startsWith('Exemption '))).toHaveLength(13);
  });

  it('defuses a text cell a spreadsheet would run as a formula, and leaves negative numbers numbers', () => {
    const row: MonthlyBusinessStats = {
      businessId: 'b1',
      year: 2026,
      month: 10,
      notificationsSent: 0,
      ordersAdded: 0,
      ordersLoaded: 0,
      ordersCollected: 0,
      ordersExpired: 0,
      ordersCancelled: 0,
      ordersRemoved: 0,
      collectedWithinWindow: 0,
      totalPickupMinutes: 0,
      medianPickupMinutes: null,
      paidAmount: -150,
      exemptionsByCode: {},
      pinReveals: 0,
      messagesByChannel: {},
      machineDowntimeMinutes: 0,
      // Alarm codes come from the lockers: one that reads as a formula must stay text.
      alarmsByCode: { '=HYPERLINK("http://x.test")': 1 },
      initialPatientCount: 4,
      patientDelta: -3,
    };
    const [, cells] = Papa.parse<string[]>(monthlyReportCsv([row]).trim()).data;
    const cell = (name: string) => cells?.[monthlyReportColumns.indexOf(name as (typeof monthlyReportColumns)[number])];
    expect(cell('Alarms by code')).toBe(`'=HYPERLINK("http://x.test"): 1`);
    expect(cell('Patient change')).toBe('-3');
    expect(cell('Paid by card (£)')).toBe('-1.50');
    for (const start of ['+', '-', '@']) {
      const [, again] = Papa.parse<string[]>(
        monthlyReportCsv([{ ...row, alarmsByCode: { [`${start}1+cmd`]: 2 } }]).trim(),
      ).data;
      expect(again?.[monthlyReportColumns.indexOf('Alarms by code')]).toBe(`'${start}1+cmd: 2`);
    }
  });
});
