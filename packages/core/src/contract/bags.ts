import { type } from 'arktype';
import { Bag } from '../machine/machine.ts';
import { text } from '../validation/general.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, staff, supportOnly } from './define.ts';
import { Paging } from './paging.ts';

/** At most this many bags to remove are listed at once (`total` counts them all). */
export const bagsToRemoveListMax = 100;

/**
 * A bag still in a locker that someone has to take out: its order was cancelled, or its collection
 * window passed (expired). `since` is when: the cancellation, or the expiry.
 */
export const BagToRemove = type({
  bagId: Id,
  barcode: 'string',
  reference: 'string | null',
  location: 'string | null',
  machineId: Id,
  machineName: 'string',
  orderId: Id,
  reason: "'cancelled' | 'expired'",
  since: 'number',
});
export type BagToRemove = typeof BagToRemove.infer;

export const bags = defineArea({
  listBags: {
    input: type({
      businessId: Id,
      /** Only the bags this machine holds now (its contents). */
      'machineId?': Id,
      /** The start of the barcode, the reference or the location, in any case. */
      'filter?': text({ max: 128 }),
      ...Paging,
    }),
    output: type({ bags: Bag.array(), nextToken: 'string | null' }),
    access: staff({ business: 'businessId', machine: 'machineId' }),
    summary: "A business's bags, or a machine's contents, newest first, 25 a page.",
  },
  listBagsToRemove: {
    input: type({ businessId: Id, 'machineId?': Id }),
    output: type({ bags: BagToRemove.array(), total: 'number.integer >= 0' }),
    access: staff({ business: 'businessId', machine: 'machineId' }),
    summary:
      "The bags to take out of a business's lockers (of one machine, or of its real machines in use): their order cancelled or expired, by machine and slot; the first 100 and how many in all.",
  },
  reprocessBags: {
    input: type({ machineId: Id }),
    output: type({ processed: 'number.integer >= 0', matched: 'number.integer >= 0' }),
    access: supportOnly,
    summary: "Matches the machine's bags that have no order to a current order with the same barcode.",
  },
});
