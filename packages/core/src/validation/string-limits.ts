import { type Type, type } from 'arktype';
import { atMostLength } from './rule.ts';

/**
 * The longest string each kind of input field takes (docs/decisions/contract.md, Input lengths). Every string
 * of every contract input has one, so nothing reaches a database index or column it cannot fit
 * (a 2,700-character name used to answer 500) and a client learns the limit from the OpenAPI page.
 * Lengths count UTF-16 code units, as the browser's maxlength does.
 */
export const stringLimits = {
  /** Ids of rows (UUIDs, 'b1' in tests), role and resource ids. */
  id: 64,
  /** Opaque paging cursors and one-time tokens from links. */
  token: 512,
  /** A person's given, family or full name; a business, group, machine or partner name. */
  name: 100,
  /** RFC 5321's longest deliverable address. */
  email: 254,
  /** A business or group name. */
  businessName: 200,
  /** An address line. */
  addressLine: 200,
  /** A post town. */
  postTown: 100,
  /**
   * A UK postcode is at most 8 characters; up to this, anything else gets the rule's own 'Invalid UK
   * postcode', which helps more than a length.
   */
  postcode: 32,
  /** A phone number as people type it: '+44 (0)7700 900 123'. */
  phone: 32,
  /** An NHS/CHI number or a business's own patient id. */
  patientId: 64,
  /** Search boxes. */
  search: 200,
  /** Descriptions, legal text and other free text. */
  freeText: 2000,
  /** A URL (webhooks, sign-up pages, sign-in return paths). */
  url: 2048,
  /** Passwords (argon2 cost stays bounded). */
  password: 1000,
  /** Credentials and secrets of outside services (card provider, integration clients). */
  credential: 256,
  /** A bag's barcode, as a pharmacy's label printer or record system makes it. */
  barcode: 64,
  /** Why staff cancelled an order or revealed its PIN. */
  reason: 500,
  /** Short codes and colours ('#1d4ed8', 'EM_0001'). */
  code: 32,
  /** The code a person types to pair a locker or approve a command-line sign-in. */
  userCode: 32,
  /** A sign-up's email or mobile verification code as typed (real ones are 6 digits). */
  verificationCode: 20,
  /** A stored logo's path (`/files/logos/<name>`) or name. */
  logoPath: 200,
  /** A locker configuration key sent with a command (docs/LOCKER-PROTOCOL.md §7). */
  lockerConfigKey: 64,
  /** A locker configuration value sent with a command. */
  lockerConfigValue: 500,
  /** A job type to list (a queue's name). */
  jobType: 100,
  /** What the health ping echoes. */
  echo: 100,
  /**
   * A logo as a data URL. 256 KB of image is about 350 KB in base64, but the limit is kept near the 1 MB
   * body limit so that an image of up to ~740 KB still gets SPEC §5's size message ('Only files under
   * 256 KB are accepted, your file has 300 KB.') rather than a length the person never typed.
   */
  logoDataUrl: 990_000,
} as const;

/**
 * `base` (a string rule; plain text when left out) limited to `max` characters: longer is a 400 with
 * INVALID_LENGTH and SPEC §5's 'Value must be at most N characters long', checked before the rule's
 * own checks; the JSON Schema shows it as `maxLength`.
 */
export const upTo = <T extends Type<string> = Type<string>>(max: number, base?: T): T =>
  atMostLength(max, (base ?? type.string) as T);

/** A row id: 1 to 64 characters. */
export const Id = upTo(stringLimits.id, type('string > 0'));
/** A row id, or null for none. */
export const IdOrNull = Id.or('null');
/** A paging cursor from an earlier page; null or left out for the first page. */
export const NextToken = upTo(stringLimits.token).or('null');
/** A search box's text. */
export const SearchText = upTo(stringLimits.search);
/** Free text: descriptions, legal information. */
export const FreeText = upTo(stringLimits.freeText);
