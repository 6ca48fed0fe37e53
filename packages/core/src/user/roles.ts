import { type } from 'arktype';

/** Roles staff add in the console (SPEC §6). */
export const portalRoleNames = ['Support', 'Business', 'Group', 'Developer'] as const;
export const PortalRoleName = type.enumerated(...portalRoleNames);
export type PortalRoleName = typeof PortalRoleName.infer;

/** Role names of the data model (SPEC §6). */
export const roleNames = [
  'business',
  'developer',
  'group',
  'internal',
  'machine',
  'patient-mobile',
  'support',
  'user',
] as const;
export const RoleName = type.enumerated(...roleNames);
export type RoleName = typeof RoleName.infer;

export const accessLevels = ['Admin'] as const;
export const AccessLevel = type.enumerated(...accessLevels);
export type AccessLevel = typeof AccessLevel.infer;

/** The scope a user needs for the support console (SPEC §1). */
export const supportScope = 'support';

/** Which front end a user added with a role signs in to: support for Support, else pharmacy. */
export const FrontEnd = type("'support' | 'pharmacy'");
export type FrontEnd = typeof FrontEnd.infer;
export const frontEndOf = (role: PortalRoleName): FrontEnd => (role === 'Support' ? 'support' : 'pharmacy');

/**
 * The description stored with an added role (SPEC §6): fixed for Support and Developer; for
 * Business and Group it names the resource, and says 'Administrator' when given Admin.
 */
export function roleDescription(role: PortalRoleName, resourceName?: string, admin = false): string {
  if (role === 'Support') return 'Access to support portal';
  if (role === 'Developer') return 'Access to developer features';
  return `${admin ? 'Administrator access' : 'Access'} to ${role} - ${resourceName ?? ''}`;
}

/** The checkbox label offering Admin on a Business or Group role. */
export const adminCheckboxLabel = (role: 'Business' | 'Group') => `Add as a ${role} administrator`;

/** True when a role needs a chosen resource before it can be submitted (SPEC §5 "Add role"). */
export const roleNeedsResource = (role: PortalRoleName): boolean => role === 'Business' || role === 'Group';
