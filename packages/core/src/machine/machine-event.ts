import { type } from 'arktype';
import { Level } from '../errors/machine-alerts.ts';
import { businessOwned, Id, Timestamp } from '../stamps.ts';

/**
 * Something a locker (EM_ codes) or the product (MP_ codes) reported about a machine (SPEC §3).
 * `code` stays a string: a newer locker may send a code this build does not know yet.
 */
export const MachineEvent = type({
  ...businessOwned,
  machineId: Id,
  bagId: 'string | null',
  barcode: 'string | null',
  code: 'string',
  level: Level,
  message: 'string',
  data: 'Record<string, unknown> | null',
  created: Timestamp,
});
export type MachineEvent = typeof MachineEvent.infer;
