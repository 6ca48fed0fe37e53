import { type } from 'arktype';
import { ArchivedStamp, Id, stamps } from '../stamps.ts';
import { Address } from './address.ts';

/** A business or group logo: the stored image path and the colour shown behind it. */
export const Logo = type({ path: 'string', backgroundColor: 'string' });
export type Logo = typeof Logo.infer;

/** A pharmacy (SPEC §3). `groupId`, `archived` and `logo` are null when there is none. */
export const Business = type({
  id: Id,
  name: 'string',
  email: 'string',
  address: Address,
  groupId: 'string | null',
  /** +447… numbers to text when a machine needs a keyholder. */
  keyholdersMobileNumbers: 'string[]',
  notificationEmails: 'string[]',
  archived: ArchivedStamp.or('null'),
  logo: Logo.or('null'),
  ...stamps,
});
export type Business = typeof Business.infer;

/** The little a user of another business may see of one (SPEC §3). */
export const BusinessInfo = type({ id: Id, name: 'string', address: Address, archived: ArchivedStamp.or('null') });
export type BusinessInfo = typeof BusinessInfo.infer;
