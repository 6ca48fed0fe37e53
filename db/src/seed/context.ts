/** What the demo seed steps share. */
import type { Transaction } from 'kysely';
import type { Database } from '../schema.ts';
import type { DemoAddress, DemoBusinessKey, DemoPatient } from './data.ts';

/** England's NHS prescription charge per item from 1 May 2025: £9.90. */
export const NHS_PRESCRIPTION_CHARGE = 990;
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const ADMIN_DISPLAY = 'Sam Support';

/** What the seed steps share: the transaction, the demo's clock and the ids made so far. */
export type Demo = {
  tx: Transaction<Database>;
  now: number;
  /** A UUIDv7 for a row made at `at`, so ids sort the way the demo's timeline does. */
  id: (at: number) => string;
  adminId: string;
  businesses: Map<DemoBusinessKey, { id: string; name: string }>;
  machines: Map<string, { id: string; businessId: string; name: string }>;
  patients: { id: string; businessId: string; demo: DemoPatient }[];
  orderPin: OrderPinSealer;
};

/**
 * Draws an order's PIN and gives it back only in its two stored forms: `pin` sealed with the api's
 * SECRETS_KEY and `pinLookup`, its keyed HMAC (packages/api/src/areas/orders/pin.ts). The db package has
 * no key, so the api hands this in: no PIN is ever written in clear, and demo orders reveal and verify
 * like any other.
 */
export type OrderPinSealer = (orderId: string) => { pin: string; pinLookup: string };

export type SeedDemoOptions = {
  adminEmail: string;
  /** A `Bun.password` hash made by the caller; the seed never sees a plain password. */
  adminPasswordHash: string;
  /** The demo's "now" in ms; defaults to the current time. */
  now?: number;
  /** The demo orders' PINs, drawn and sealed by the api (it alone holds SECRETS_KEY). */
  orderPin: OrderPinSealer;
};

export const addressColumns = (a: DemoAddress) => ({
  address_line1: a.line1,
  address_line2: a.line2,
  address_line3: a.line3,
  post_town: a.postTown,
  postcode: a.postcode,
});
