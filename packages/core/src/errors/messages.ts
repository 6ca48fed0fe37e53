/**
 * User-facing messages of SPEC §2, §4 and §8 that are not field validation. Exact SPEC words;
 * `{product}` becomes the configured product name, so those are functions of it.
 */
export const messages = {
  serverUnreachable: (product: string) => `The ${product} server could not be reached`,
  unexpectedResponseStatus: 'unexpected response status',
  invalidCredentials: 'Invalid username or password',
  tooManyAttempts:
    'Your account has been temporarily disabled due to too many incorrect login attempts. Please try again in 5 minutes.',
  /** A staff account disabled for not being used (issue 37 §2, docs/decisions/auth.md). */
  accountDisabled: (product: string) =>
    `Your account has been disabled because it has not been used for a while. Please speak to your manager or ${product} Support to enable it again.`,
  expiredOrInvalidLink: 'You have clicked on an expired or invalid link. Please try again.',
  unknownError: 'An unknown error occurred',
  invalidPairingCode: 'invalid code',
  sessionTimedOut: 'Your session has timed out. Please log in again',
  accessRestricted: (product: string) =>
    `You do not have access to this area. If you think you should, please speak to your manager or ${product} Support.`,
  groupsPageWarning: 'Caution: This is not the businesses page. This page is only for creating and editing groups',
  removeFromArchivedGroup: "You won't be able to add it back unless group is unarchived.",
  confirmArchiveGroup: (name: string) => `Do you want to archive the group ${name}?`,
  confirmUnarchiveGroup: (name: string) => `Do you want to unarchive the group ${name}?`,
  duplicateMachineName: 'A machine with that name already exists for this business',
  csvParseErrors: 'Errors encountered during parsing.',
  csvNoData: 'The selected file contains no data.',
  importComplete: 'Import complete',
  importCancelled: 'Import cancelled',
} as const;

/** Empty states of lists (SPEC §2 and §8). */
export const emptyStates = {
  businesses: 'No businesses found',
  users: 'No users found.',
  /** 'No archived groups found.' or 'No active groups found.' */
  groups: (archived: boolean) => `No ${archived ? 'archived' : 'active'} groups found.`,
  roles: 'The user has no roles',
  importErrors: 'No errors.',
} as const;

/**
 * Why a login did not succeed (SPEC §4, §8, and a disabled account: docs/decisions/auth.md); the
 * contract's `LoginReason` schema has the same.
 */
export const loginFailureReasons = ['InvalidCredentials', 'ForceReset', 'TooManyAttempts', 'AccountDisabled'] as const;

/** The message shown for a login failure; ForceReset shows none, it sends the user to reset. */
export const loginFailureMessage = (
  reason: (typeof loginFailureReasons)[number],
  product = 'MedLocker',
): string | undefined =>
  reason === 'InvalidCredentials'
    ? messages.invalidCredentials
    : reason === 'TooManyAttempts'
      ? messages.tooManyAttempts
      : reason === 'AccountDisabled'
        ? messages.accountDisabled(product)
        : undefined;
