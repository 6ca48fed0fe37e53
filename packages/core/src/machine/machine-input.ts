import { type } from 'arktype';
import { PositiveInteger, Required } from '../validation/general.ts';

/**
 * What staff type to add or edit a machine (SPEC §5): name and number of slots required, slots a
 * positive integer. Name uniqueness needs the business's other machines: see {@link isSameMachineName}.
 */
export const MachineInput = type({ name: Required, numberOfSlots: PositiveInteger, 'paymentsEnabled?': 'boolean' });
export type MachineInput = typeof MachineInput.inferIn;

/**
 * True when two machine names clash within a business: compared trimmed and case-insensitively, so
 * 'Locker 1' and ' locker 1' cannot both exist ('A machine with that name already exists for this
 * business', DUPLICATE_MACHINE_NAME, HTTP 409).
 */
export const isSameMachineName = (a: string, b: string): boolean =>
  a.trim().localeCompare(b.trim(), 'en-GB', { sensitivity: 'accent' }) === 0;
