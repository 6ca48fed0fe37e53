import type { Type } from 'arktype';
import { validationMessage } from './catalogue.ts';
import { fail } from './rule.ts';

/**
 * A list whose items each pass `item` and, once normalised by it, are all different: '07700 900123'
 * and '+447700900123' are the same keyholder. Each repeat is reported at its own index
 * ('Item with value X already exists', DUPLICATE_ITEM), showing the normalised value.
 */
export const uniqueItems = <T extends Type>(item: T) =>
  item.array().pipe((items, ctx) => {
    const seen = new Set<string>();
    (items as unknown[]).forEach((value, index) => {
      // Case does not make a different address or number.
      const key = String(value).toLowerCase();
      if (seen.has(key))
        fail(ctx, 'DUPLICATE_ITEM', validationMessage.duplicateItem(String(value)), [...ctx.path, index]);
      seen.add(key);
    });
    return items;
  });
