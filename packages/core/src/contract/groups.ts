import { type } from 'arktype';
import { Archived } from './businesses.ts';
import { defineArea } from './define.ts';

/** What a picker or a role's resource cell needs of a group. */
export const GroupInfo = type({ id: 'string', name: 'string', archived: Archived.or('null') });
export type GroupInfo = typeof GroupInfo.infer;

export const groups = defineArea({
  listGroupsInfo: {
    input: type({
      /** Case-insensitive prefix of the name. */
      'filter?': 'string <= 200',
      'nextToken?': 'string | null',
    }),
    output: type({ data: GroupInfo.array(), nextToken: 'string | null' }),
    access: 'support',
    summary: 'Groups by name for pickers (Add role): prefix search, 25 a page, keyset paged.',
  },
});
