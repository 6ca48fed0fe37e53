import { type } from 'arktype';
import { ArchivedStamp, businessOwned, Id, stamps, Timestamp } from '../stamps.ts';

/** A temperature reading, in °C. */
export const TemperatureReading = type({ created: Timestamp, value: 'number' });
export type TemperatureReading = typeof TemperatureReading.infer;

/** A locker (SPEC §3). `outOfOrderStatus` is null when in order; `temperatureStatus` null until readings arrive. */
export const Machine = type({
  ...businessOwned,
  name: 'string',
  numberOfSlots: 'number.integer > 0',
  paymentsEnabled: 'boolean',
  archived: ArchivedStamp.or('null'),
  outOfOrderStatus: type({ at: Timestamp, userId: Id, userDisplayName: 'string' }).or('null'),
  temperatureStatus: type({
    average: 'number',
    lastExcursionAt: Timestamp.or('null'),
    updated: Timestamp,
    readings: TemperatureReading.array(),
  }).or('null'),
  ...stamps,
});
export type Machine = typeof Machine.infer;

/** A locker's reported state: observations are whatever the locker reports, by name. */
export const MachineStatus = type({
  ...businessOwned,
  machineId: Id,
  created: Timestamp,
  observations: 'Record<string, unknown>',
});
export type MachineStatus = typeof MachineStatus.infer;

/** The tokens of a test machine's locker (SPEC §3 Test machine `credentials`). */
export const TestMachineCredentials = type({
  accessToken: 'string',
  accessTokenExpires: Timestamp,
  refreshToken: 'string',
});
export type TestMachineCredentials = typeof TestMachineCredentials.infer;

/**
 * A test machine: a machine plus the credentials a simulated locker uses (SPEC §3). `credentials` is
 * null, with `credentialsNote` saying why, when its live tokens have no kept copy to show (issued
 * before copies were kept) or it has none (archived): showing new ones would cut its locker off.
 */
export const TestMachine = Machine.and({
  machineId: Id,
  credentials: TestMachineCredentials.or('null'),
  credentialsNote: 'string | null',
});
export type TestMachine = typeof TestMachine.infer;

/** A test machine just created: paired at once, so its credentials are always there. */
export const NewTestMachine = Machine.and({
  machineId: Id,
  credentials: TestMachineCredentials,
  credentialsNote: 'null',
});
export type NewTestMachine = typeof NewTestMachine.infer;

/** A bag of medicines loaded, or to be loaded, into a locker (SPEC §3). Charges in pence. */
export const Bag = type({
  ...businessOwned,
  barcode: 'string',
  reference: 'string | null',
  location: 'string | null',
  machineId: 'string | null',
  orderId: 'string | null',
  pin: 'string | null',
  prescriptionCharge: 'number.integer >= 0',
  retailCharge: 'number.integer >= 0',
  outOfOrderNotificationSent: 'boolean',
  ...stamps,
});
export type Bag = typeof Bag.infer;
