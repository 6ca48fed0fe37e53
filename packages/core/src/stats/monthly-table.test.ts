import { describe, expect, it } from 'bun:test';
import { monthlyStatsCells, monthlyStatsColumns, monthlyStatsCsv } from './monthly-table.ts';
import type { MonthlyBusinessStats } from './stats.ts';

const october: MonthlyBusinessStats = {
  businessId: 'b1',
  year: 2026,
  month: 10,
  notificationsSent: 40,
  ordersAdded: 31,
  ordersLoaded: 30,
  ordersCollected: 25,
  ordersExpired: 3,
  ordersCancelled: 2,
  ordersRemoved: 1,
  collectedWithinWindow: 24,
  totalPickupMinutes: 4500,
  medianPickupMinutes: 95,
  paidAmount: 11_890,
  exemptionsByCode: { F: 1, A: 3 },
  pinReveals: 2,
  messagesByChannel: { sms: { sent: 30, failed: 1 }, email: { sent: 9, failed: 0 } },
  machineDowntimeMinutes: 3000,
  alarmsByCode: { EM_0001: 2 },
  initialPatientCount: 120,
  patientDelta: -2,
};

describe('the monthly table', () => {
  it('shows every figure of a month per SPEC §9: pounds, hours up to 48 then days, codes sorted', () => {
    expect(Object.fromEntries(monthlyStatsColumns.map((c, i) => [c, monthlyStatsCells(october)[i]]))).toEqual({
      Month: 'October 2026',
      'Orders added': '31',
      Loaded: '30',
      Collected: '25',
      'Collected in time': '24',
      Expired: '3',
      Cancelled: '2',
      Removed: '1',
      'Median pickup': '1.6 hours',
      'Average pickup': '3 hours',
      Paid: '£118.90',
      Exemptions: '4 (A 3, F 1)',
      'PIN reveals': '2',
      'Messages sent': '39 (Email 9, SMS 30)',
      'Messages failed': '1 (SMS 1)',
      'Machine downtime': '2.1 days',
      Alarms: '2 (EM_0001 2)',
    });
  });

  it('shows a month without collections with dashes for the pickup times and zeros elsewhere', () => {
    const empty = {
      ...october,
      ordersCollected: 0,
      totalPickupMinutes: 0,
      medianPickupMinutes: null,
      alarmsByCode: {},
    };
    const cells = monthlyStatsCells(empty);
    expect([cells[8], cells[9], cells[16]]).toEqual(['–', '–', '0']);
  });

  it('writes the CSV with a header, CRLF lines, the business first when asked, and formula cells defused', () => {
    const csv = monthlyStatsCsv([{ ...october, businessName: '=HYPERLINK("x")' }], { withBusiness: true });
    const [header, row, end] = csv.split('\r\n');
    expect(header).toBe(['Business', ...monthlyStatsColumns].map((c) => `"${c}"`).join(','));
    expect(
      row?.startsWith(`"'=HYPERLINK(""x"")","October 2026",31,30,25,24,3,2,1,"1.6 hours","3 hours","£118.90",`),
    ).toBe(true);
    expect(end).toBe('');
  });
});
