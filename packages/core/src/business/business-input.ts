import { type } from 'arktype';
import { UkMobile } from '../contact/uk-mobile.ts';
import { Email } from '../validation/general.ts';
import { uniqueItems } from '../validation/unique-items.ts';

/**
 * A business's contact lists as edited (SPEC §5): every notification email valid, every keyholder a
 * UK mobile (stored +447…), no repeats in either ('Item with value X already exists').
 */
export const BusinessContactLists = type({
  notificationEmails: uniqueItems(Email),
  keyholdersMobileNumbers: uniqueItems(UkMobile),
});
export type BusinessContactLists = typeof BusinessContactLists.inferIn;
