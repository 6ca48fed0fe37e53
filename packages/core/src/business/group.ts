import { type } from 'arktype';
import { ArchivedStamp, Id, stamps } from '../stamps.ts';
import { Address } from './address.ts';
import { Logo } from './business.ts';

/** A group of businesses (SPEC §3); groups may nest under `parentId`. */
export const Group = type({
  id: Id,
  name: 'string',
  parentId: 'string | null',
  email: 'string',
  address: Address,
  logo: Logo.or('null'),
  archived: ArchivedStamp.or('null'),
  ...stamps,
});
export type Group = typeof Group.infer;
