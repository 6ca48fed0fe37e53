import { type } from 'arktype';

/**
 * A postal address as stored (SPEC §3). Any line a record does not have is null (imported patients
 * often lack some), matching the contract's Address; the postcode is stored normalised ('SW1A 1AA')
 * once `UkPostcode` has read it.
 */
export const Address = type({
  line1: 'string | null',
  line2: 'string | null',
  line3: 'string | null',
  postTown: 'string | null',
  postcode: 'string | null',
});
export type Address = typeof Address.infer;
