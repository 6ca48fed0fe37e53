import { type } from 'arktype';
import { defineArea } from './define.ts';

/** SPEC §3 Address; lines a record does not have are null. */
export const Address = type({
  line1: 'string | null',
  line2: 'string | null',
  line3: 'string | null',
  postTown: 'string | null',
  postcode: 'string | null',
});
export type Address = typeof Address.infer;

/** SPEC §3 archived mark: when and by whom; null while active. */
export const Archived = type({ at: 'number', userId: 'string | null', userDisplayName: 'string | null' });
export type Archived = typeof Archived.infer;

/** SPEC §3 Business info: what a picker or a role's resource cell needs. */
export const BusinessInfo = type({ id: 'string', name: 'string', address: Address, archived: Archived.or('null') });
export type BusinessInfo = typeof BusinessInfo.infer;

/** Pages of pickers are 25 long; `nextToken` is an opaque keyset cursor, null on the last page. */
export const infoPageSize = 25;

export const businesses = defineArea({
  listBusinessesInfo: {
    input: type({
      /** Case-insensitive prefix of the name. */
      'filter?': 'string <= 200',
      'nextToken?': 'string | null',
    }),
    output: type({ data: BusinessInfo.array(), nextToken: 'string | null' }),
    access: 'support',
    summary: 'Businesses by name for pickers (Add role): prefix search, 25 a page, keyset paged.',
  },
});
