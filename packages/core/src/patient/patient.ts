import { type } from 'arktype';
import { Address } from '../business/address.ts';
import { businessOwned, Id, stamps, Timestamp } from '../stamps.ts';

/** The last failed delivery to a patient, shown so staff can fix the contact detail. */
export const DeliveryFailure = type({ error: 'string', timestamp: Timestamp });
export type DeliveryFailure = typeof DeliveryFailure.infer;

/**
 * A patient's WhatsApp opt-in: the +447… number they proved they read WhatsApp on (by reading back a
 * code sent there), when, and the staff member who recorded it.
 */
export const WhatsAppOptIn = type({ mobileNumber: 'string', at: Timestamp, byDisplayName: 'string' });
export type WhatsAppOptIn = typeof WhatsAppOptIn.infer;

/**
 * What a patient and a sign-up both hold (SPEC §3): date of birth (YYYY-MM-DD), email, mobile (+447…)
 * and address, each null when not given.
 */
const contactDetails = {
  dateOfBirth: 'string | null',
  email: 'string | null',
  mobileNumber: 'string | null',
  address: Address.or('null'),
} as const;

/**
 * A patient of a business (SPEC §3). `displayId` is the business's own id for them (often the NHS
 * number); `dateOfBirth` is YYYY-MM-DD; `mobileNumber` is +447…; deleted patients keep their row.
 */
export const Patient = type({
  ...businessOwned,
  displayId: 'string',
  name: 'string',
  ...contactDetails,
  deleted: type({ deletedAt: Timestamp, deletedById: Id, deletedByDisplayName: 'string' }).or('null'),
  lastEmailFailure: DeliveryFailure.or('null'),
  lastSmsFailure: DeliveryFailure.or('null'),
  /** Opted in to messages by WhatsApp on this number (their current mobile) since `at`; null when not. */
  whatsAppOptIn: WhatsAppOptIn.or('null'),
  ...stamps,
});
export type Patient = typeof Patient.infer;

export const signUpStatuses = ['new', 'validated', 'confirmed', 'rejected'] as const;
export const SignUpStatus = type.enumerated(...signUpStatuses);
export type SignUpStatus = typeof SignUpStatus.infer;

export const contactCodeStatuses = ['notChecked', 'codeExpired', 'codeIncorrect', 'verified'] as const;
export const ContactCodeStatus = type.enumerated(...contactCodeStatuses);
export type ContactCodeStatus = typeof ContactCodeStatus.infer;

/** A patient's online sign-up, waiting to become a patient (SPEC §3). */
export const PatientSignUp = type({
  ...businessOwned,
  firstName: 'string',
  lastName: 'string',
  ...contactDetails,
  status: SignUpStatus,
  ...stamps,
});
export type PatientSignUp = typeof PatientSignUp.infer;

/** The state of a sign-up's email and mobile verification codes. */
export const ContactVerification = type({
  emailCodeStatus: ContactCodeStatus,
  mobileCodeStatus: ContactCodeStatus,
  mobileCode: 'string | null',
  emailCode: 'string | null',
});
export type ContactVerification = typeof ContactVerification.infer;

/**
 * The name the patient page greets a patient by ("Hello Mia"): their given name, or, for a patient
 * stored with a full name only (the console's one Name field, an import's Name column), its first word,
 * so every patient is greeted by first name and none by their full name.
 */
export function greetingName(givenName: string, fullName: string): string {
  const given = givenName.trim();
  if (given) return given;
  return fullName.trim().split(/\s+/)[0] ?? '';
}
