import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';

/*
 * Test data for the monthly report email: stored monthly rows as the stats.monthly job writes them, and
 * the CSV lines they must give, written out by hand.
 */

type Row = {
  year: number;
  month: number;
  notifications_sent?: number;
  orders_added?: number;
  orders_loaded?: number;
  orders_collected?: number;
  collected_within_window?: number;
  orders_expired?: number;
  orders_cancelled?: number;
  orders_removed?: number;
  total_pickup_minutes?: number;
  median_pickup_minutes?: number | null;
  paid_amount?: number;
  exemptions_by_code?: Record<string, number>;
  pin_reveals?: number;
  messages_by_channel?: Record<string, { sent: number; failed: number }>;
  machine_downtime_minutes?: number;
  alarms_by_code?: Record<string, number>;
  initial_patient_count?: number;
  patient_delta?: number;
};

/** Stores monthly rows of a business directly (the stats job is not what is under test). */
export async function storeMonthlyRows(db: Kysely<Database>, businessId: string, rows: Row[]): Promise<void> {
  await db
    .insertInto('monthly_business_stats')
    .values(
      rows.map((r) => ({
        ...r,
        business_id: businessId,
        exemptions_by_code: JSON.stringify(r.exemptions_by_code ?? {}),
        messages_by_channel: JSON.stringify(r.messages_by_channel ?? {}),
        alarms_by_code: JSON.stringify(r.alarms_by_code ?? {}),
        updated: 1,
        computed_at: 1,
      })),
    )
    .execute();
}

/** October 2026 (reported), September 2026 (the month before), October 2025 (the oldest of the 13), and September 2025 (outside). */
export const octoberEstate: Row[] = [
  {
    year: 2026,
    month: 10,
    notifications_sent: 20,
    orders_added: 12,
    orders_loaded: 11,
    orders_collected: 9,
    collected_within_window: 8,
    orders_expired: 1,
    orders_cancelled: 2,
    orders_removed: 1,
    total_pickup_minutes: 3030,
    median_pickup_minutes: 210,
    paid_amount: 2380,
    exemptions_by_code: { F: 2, A: 1 },
    pin_reveals: 1,
    messages_by_channel: { sms: { sent: 15, failed: 1 }, email: { sent: 5, failed: 0 } },
    machine_downtime_minutes: 45,
    alarms_by_code: { EM_0003: 1, EM_0001: 2 },
    initial_patient_count: 120,
    patient_delta: 5,
  },
  {
    year: 2026,
    month: 9,
    orders_added: 7,
    orders_loaded: 7,
    orders_collected: 7,
    collected_within_window: 7,
    total_pickup_minutes: 420,
    median_pickup_minutes: 60,
    paid_amount: 123456,
    initial_patient_count: 122,
    patient_delta: -2,
  },
  { year: 2025, month: 10, orders_added: 3, initial_patient_count: 100 },
  { year: 2025, month: 9, orders_added: 99 },
];

/** Every text cell of the CSV is quoted (core's csvText). */
const header = [
  'Month,Orders added,Orders loaded,Orders collected,Collected within window,Orders expired,Orders cancelled,' +
    'Orders removed,Median pickup (minutes),Total pickup (minutes),Paid by card (£),Exemptions declared,' +
    'Exemption A,Exemption B,Exemption D,Exemption E,Exemption F,Exemption G,Exemption L,Exemption H,Exemption K,' +
    'Exemption M,Exemption S,Exemption U,Exemption W,PIN reveals,Patient messages sent,SMS sent,SMS failed,' +
    'Email sent,Email failed,WhatsApp sent,WhatsApp failed,Machine downtime (minutes),Alarms,Alarms by code,' +
    'Patients at start of month,Patient change',
]
  .join('')
  .split(',')
  .map((cell) => `"${cell}"`)
  .join(',');

/** A month with no row: zeros, but the patients the month before ended with carry over. */
const zeros = (month: string, patients = 0) =>
  `"${month}",0,0,0,0,0,0,0,,0,0.00,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,,${patients},0`;

/** The CSV of {@link octoberEstate} reported for October 2026: 13 months, oldest first. */
export const octoberCsv = [
  header,
  '"2025-10",3,0,0,0,0,0,0,,0,0.00,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,,100,0',
  zeros('2025-11', 100),
  zeros('2025-12', 100),
  zeros('2026-01', 100),
  zeros('2026-02', 100),
  zeros('2026-03', 100),
  zeros('2026-04', 100),
  zeros('2026-05', 100),
  zeros('2026-06', 100),
  zeros('2026-07', 100),
  zeros('2026-08', 100),
  '"2026-09",7,7,7,7,0,0,0,60,420,1234.56,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,,122,-2',
  '"2026-10",12,11,9,8,1,2,1,210,3030,23.80,3,1,0,0,0,2,0,0,0,0,0,0,0,0,1,20,15,1,5,0,0,0,45,3,"EM_0001: 2; EM_0003: 1",120,5',
  '',
].join('\r\n');
