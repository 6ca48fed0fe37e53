import { type Type, type } from 'arktype';
import { Address } from '../business/address.ts';
import { Business, BusinessInfo } from '../business/business.ts';
import { BusinessContactLists } from '../business/business-input.ts';
import { normaliseUkPostcode, UkPostcode } from '../contact/uk-postcode.ts';
import { ArchivedStamp } from '../stamps.ts';
import { Email, isEmail, Required, RequiredLine } from '../validation/general.ts';
import { fail } from '../validation/rule.ts';
import { Id, SearchText, stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, staff, supportOnly } from './define.ts';
import { byId } from './method-builders.ts';
import { Ok } from './ok.ts';
import { Paging } from './paging.ts';

// The entities are core's (src/business/); the contract only re-exports them for its users.
export { Address, BusinessInfo };
/** SPEC §3 archived mark: when and by whom; null while active. */
export const Archived = ArchivedStamp;
export type Archived = ArchivedStamp;

/** Pages of lists and pickers are 25 long; `nextToken` is an opaque keyset cursor, null on the last page. */
export const infoPageSize = 25;

/** A list's search box: a case-insensitive prefix of the name. */
export const Filter = SearchText;

/** A free-text line: trimmed, blank means none (null). */
export const OptionalLine = upTo(stringLimits.addressLine)
  .or('null | undefined')
  .pipe((s) => {
    const t = (s ?? '').trim();
    return t === '' ? null : t;
  })
  .to('string <= 200 | null');

/** A postcode that may be left out (groups); when given it must be a UK postcode, stored normalised. */
export const OptionalPostcode = upTo(stringLimits.postcode)
  .or('null | undefined')
  .pipe((s, ctx) => {
    if (s === null || s === undefined || s.trim() === '') return null;
    return normaliseUkPostcode(s) ?? fail(ctx, 'INVALID_UK_POSTCODE');
  });

/** An email that may be left out (groups); when given it must be valid ('Invalid email'). */
export const OptionalEmail = upTo(stringLimits.email)
  .or('null | undefined')
  .pipe((s, ctx) => {
    if (s === null || s === undefined || s.trim() === '') return null;
    return isEmail(s.trim()) ? s.trim() : fail(ctx, 'INVALID_EMAIL');
  });

/** A business's address as typed: first line, post town and a UK postcode required (stored 'SW1A 1AA'). */
export const BusinessAddressForm = type({
  line1: upTo(stringLimits.addressLine, Required).pipe((s) => s.trim()),
  'line2?': OptionalLine,
  'line3?': OptionalLine,
  postTown: upTo(stringLimits.postTown, Required).pipe((s) => s.trim()),
  postcode: UkPostcode,
});

/**
 * What staff fill in to add or edit a business (SPEC §5): name required, email valid, address with a
 * UK postcode, notification emails and keyholder mobiles each valid and without repeats ('Item with
 * value X already exists' at the repeat's index). The lists may be left out: empty.
 */
export const BusinessForm = type({
  name: upTo(stringLimits.businessName, RequiredLine).pipe((s) => s.trim()),
  email: Email,
  address: BusinessAddressForm,
  'notificationEmails?': BusinessContactLists.get('notificationEmails'),
  'keyholdersMobileNumbers?': BusinessContactLists.get('keyholdersMobileNumbers'),
});
export type BusinessForm = typeof BusinessForm.inferIn;

const logoColourPattern = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/**
 * `#rgb` or `#rrggbb`, as the console's colour picker gives. The pattern is a narrow, checked once the
 * length passes: as a native pattern, arktype would report an overlong value's pattern and length
 * together in one message of its own rather than SPEC §5's length message. Its words are arktype's
 * pattern message as before; the JSON Schema shows only the `maxLength`.
 */
export const LogoColour = upTo(stringLimits.code).narrow(
  (s, ctx) => logoColourPattern.test(s) || ctx.mustBe(`matched by ${logoColourPattern.source}`),
);

/** Logo methods, the same for businesses and groups. Uploads are JPEG or PNG by content, at most 262144 bytes. */
export const logoMethods = <O extends Type>(entity: 'business' | 'group', updated: O) =>
  ({
    uploadLogo: {
      input: type({
        /** The business or group the logo is for (must exist and not be archived). */
        entityId: Id,
        /** `data:image/png;base64,…` or `data:image/jpeg;base64,…`; the bytes decide, not the declared type. */
        dataUrl: upTo(stringLimits.logoDataUrl),
      }),
      output: type({ path: 'string' }),
      access: entity === 'business' ? staff({ business: 'entityId' }, true) : staff({ group: 'entityId' }, true),
      summary: `Stores a ${entity} logo (JPEG or PNG by content, ≤ 256 KB); answers its path under /files/logos/.`,
    },
    updateLogo: {
      input: type({
        id: Id,
        /** A path uploadLogo answered, or null for no logo. */
        path: upTo(stringLimits.logoPath).or('null'),
        backgroundColor: LogoColour,
      }),
      output: updated,
      access: entity === 'business' ? staff({ business: 'id' }, true) : staff({ group: 'id' }, true),
      summary: `Sets the logo path and background colour of a ${entity} that is not archived.`,
    },
    deleteLogo: {
      input: type({
        /** The logo's path (`/files/logos/<name>`) or its name. */
        key: upTo(stringLimits.logoPath, type('string > 0')),
      }),
      output: Ok,
      access: supportOnly,
      summary: 'Deletes a stored logo file and clears it from whatever used it (refused while that is archived).',
    },
  }) as const;

const BusinessList = type({ businesses: Business.array(), nextToken: 'string | null' });

export const businesses = defineArea({
  listBusinesses: {
    input: type({
      /** true: the Archived tab; false or absent: the Active tab. */
      'archived?': 'boolean',
      'filterText?': Filter,
      ...Paging,
    }),
    output: BusinessList,
    access: staff('filtered'),
    summary: 'Businesses by name, active or archived: case-insensitive name prefix, 25 a page, keyset paged.',
  },
  listBusinessesInfo: {
    input: type({ 'filter?': Filter, ...Paging }),
    output: type({ data: BusinessInfo.array(), nextToken: 'string | null' }),
    access: supportOnly,
    summary: 'Businesses by name for pickers (Add role): prefix search, 25 a page, keyset paged.',
  },
  listGroupedBusinesses: {
    input: type({
      groupId: Id,
      /** The 'Show archived' toggle: true lists archived businesses too; otherwise active ones only. */
      'archived?': 'boolean',
      'filterText?': Filter,
      ...Paging,
    }),
    output: BusinessList,
    access: staff({ group: 'groupId' }),
    summary: "A group's businesses by name (archived ones too with archived: true), 25 a page.",
  },
  listUngroupedBusinesses: {
    input: type({ 'filterText?': Filter, ...Paging }),
    output: BusinessList,
    access: supportOnly,
    summary: 'Active businesses in no group, by name: what the Link businesses modal offers.',
  },
  listAccessibleBusinesses: {
    input: type({ 'filterText?': Filter, ...Paging }),
    output: type({ businesses: BusinessInfo.array(), nextToken: 'string | null' }),
    access: staff('filtered'),
    summary:
      "Active businesses the caller may use: all for support staff, else those of the caller's Business and Group roles.",
  },
  createBusiness: {
    input: BusinessForm,
    output: type({ business: Business }),
    access: supportOnly,
    summary: 'Adds a business (name, email, address with UK postcode, notification emails, keyholder mobiles).',
  },
  updateBusiness: {
    input: BusinessForm.and({ id: Id }),
    output: type({ business: Business }),
    access: staff({ business: 'id' }, true),
    summary: 'Changes a business that is not archived (409 when archived).',
  },
  getBusiness: byId({
    output: type({ business: Business }),
    access: staff({ business: 'id' }),
    summary: 'A business with its archive mark and logo.',
  }),
  getBusinessInfo: byId({
    output: type({ business: BusinessInfo }),
    access: staff({ business: 'id' }),
    summary: "A business's name, address and archive mark (support staff, or holders of a role on it).",
  }),
  archiveBusiness: byId({
    output: type({ business: Business }),
    access: supportOnly,
    summary: 'Archives a business, recording when and by whom; pushes `archived` to consoles watching it.',
  }),
  unarchiveBusiness: byId({
    output: type({ business: Business }),
    access: supportOnly,
    summary: 'Unarchives a business; pushes `unarchived` to consoles watching it.',
  }),
  linkGroup: {
    input: type({ groupId: Id, businessIds: Id.array().atLeastLength(1).atMostLength(200) }),
    output: type({ linked: 'string[]' }),
    access: supportOnly,
    summary:
      'Puts businesses in a group, all or none: refused for an archived group, an archived business, or one in another group.',
  },
  unlinkGroup: byId({
    output: type({ business: Business }),
    access: supportOnly,
    summary: 'Takes a business (not archived) out of its group; allowed while the group is archived.',
  }),
  ...logoMethods('business', type({ business: Business })),
});

export { Business };
