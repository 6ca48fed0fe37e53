import { type } from 'arktype';
import { Bag } from '../machine/machine.ts';
import { text } from '../validation/general.ts';
import { NextToken } from '../validation/string-limits.ts';
import { defineArea, staff, supportOnly } from './define.ts';

const Id = 'string > 0 & string <= 64';

export const bags = defineArea({
  listBags: {
    input: type({
      businessId: Id,
      /** Only the bags this machine holds now (its contents). */
      'machineId?': Id,
      /** The start of the barcode, the reference or the location, in any case. */
      'filter?': text({ max: 128 }),
      'nextToken?': NextToken,
    }),
    output: type({ bags: Bag.array(), nextToken: 'string | null' }),
    access: staff({ business: 'businessId', machine: 'machineId' }),
    summary: "A business's bags, or a machine's contents, newest first, 25 a page.",
  },
  reprocessBags: {
    input: type({ machineId: Id }),
    output: type({ processed: 'number.integer >= 0', matched: 'number.integer >= 0' }),
    access: supportOnly,
    summary: "Matches the machine's bags that have no order to a current order with the same barcode.",
  },
});
