import { type CsvFieldKind, csvFieldKinds } from '../patient/imported-patient.ts';
import { fieldByHeader, guessEachOnce } from './header-match.ts';
import { type CsvMapping, csvFieldLabels } from './mapping.ts';

const aliases: Record<string, CsvFieldKind> = {
  id: 'ID',
  patientid: 'ID',
  nhs: 'NhsNumber',
  nhsno: 'NhsNumber',
  name: 'FullName',
  firstname: 'GivenName',
  forename: 'GivenName',
  surname: 'FamilyName',
  lastname: 'FamilyName',
  mobile: 'Mobile',
  mobilenumber: 'Mobile',
  phone: 'Mobile',
  dob: 'DateOfBirth',
  dateofbirth: 'DateOfBirth',
  email: 'Email',
  address1: 'AddressLine1',
  address2: 'AddressLine2',
  address3: 'AddressLine3',
  addressline: 'AddressLine1',
  town: 'PostTown',
  city: 'PostTown',
  postcode: 'Postcode',
};

/**
 * A first guess at the mapping from field names ('NHS Number', 'Surname', 'DOB'…); each kind used once.
 * The console's mapping screen starts from it, and the cli imports with it when no mapping is given.
 */
export function guessMapping(fieldNames: string[]): CsvMapping {
  return guessEachOnce(fieldNames, (name) => fieldByHeader(name, csvFieldKinds, csvFieldLabels, aliases));
}
