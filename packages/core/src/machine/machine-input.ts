import { type } from 'arktype';
import { Bool, positiveIntegerUpTo, RequiredLine, text } from '../validation/general.ts';
import { atMostLength } from '../validation/rule.ts';

/** The longest machine name, counted after trimming. */
export const machineNameMaxLength = 100;

/**
 * The most slots a machine may have. SPEC §5 only asks for a positive integer; lockers have tens of
 * slots, and the column is a 32-bit integer, so 2,147,483,648 slots was a database error (500).
 */
export const machineSlotsMax = 1000;

/**
 * What staff type to add or edit a machine or a test machine (SPEC §5): name and number of slots
 * required, slots a positive integer (at most {@link machineSlotsMax}: 'Invalid range, value must be
 * an integer between 1 and 1000'); the name trimmed, at most 100 characters ('Value must be at
 * most 100 characters long'). Name uniqueness needs the business's other machines: see
 * {@link isSameMachineName}.
 */
export const MachineInput = type({
  // The raw text is bounded too (blanks around count there), so nothing unbounded reaches the trim.
  name: atMostLength(2 * machineNameMaxLength, RequiredLine)
    .pipe((s) => s.trim())
    .to(text({ max: machineNameMaxLength })),
  numberOfSlots: positiveIntegerUpTo(machineSlotsMax),
  'paymentsEnabled?': Bool,
});
export type MachineInput = typeof MachineInput.inferIn;

/**
 * True when two machine names clash within a business: compared trimmed and case-insensitively, so
 * 'Locker 1' and ' locker 1' cannot both exist ('A machine with that name already exists for this
 * business', DUPLICATE_MACHINE_NAME, HTTP 409).
 */
export const isSameMachineName = (a: string, b: string): boolean =>
  a.trim().localeCompare(b.trim(), 'en-GB', { sensitivity: 'accent' }) === 0;
