/**
 * The business constants and limits of SPEC §9, in one place because the SPEC lists them together
 * and the api, console and cli must agree on each.
 */
export const limits = {
  /** Login lockout after too many failed attempts (SPEC §8 wording says 5 minutes). */
  loginLockoutMinutes: 5,
  passwordMinLength: 12,
  /** Card-provider id, secret and token. */
  paymentCredentialMinLength: 8,
  /** 256 KB: logos and other images. */
  imageMaxBytes: 262_144,
  imageMimeTypes: ['image/jpeg', 'image/png'],
  imageExtensions: ['.jpg', '.jpeg', '.png'],
  /** Recommended logo size shown beside the upload (SPEC §5). */
  logoRecommendedSize: { width: 320, height: 100 },
  smsPageLength: 160,
  smsSenderIdMaxLength: 11,
  /** Hours the temperature excursion message covers. */
  temperatureExcursionHours: 3,
  /** Durations up to this many hours show in hours, longer ones in days. */
  durationHoursUpTo: 48,
  searchDebounceMs: 500,
  /** Papaparse chunk size for the patient CSV import. */
  csvChunkSize: 1024,
  /** Rows a list shows by default, and the rows rendered beyond the viewport. */
  listRows: 5,
  listOverscan: 5,
  breakpointsPx: { sm: 576, md: 768, lg: 992, xl: 1200 },
  mobileCountryPrefix: '+44',
} as const;
