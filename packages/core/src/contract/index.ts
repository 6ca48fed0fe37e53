import { auth } from './auth.ts';
import { bags } from './bags.ts';
import { businesses } from './businesses.ts';
import { groups } from './groups.ts';
import { health } from './health.ts';
import { identityProviders } from './identity-providers.ts';
import { machines } from './machines.ts';
import { patients } from './patients.ts';
import { signUps } from './sign-ups.ts';
import { testMachines } from './test-machines.ts';
import { users } from './users.ts';

/**
 * The RPC contract: area → method → input, output and access. `POST /api/{area}/{method}`.
 * The api validates with it, the console and cli are typed by it, the OpenAPI page is made from it.
 */
export const contract = {
  health,
  auth,
  users,
  identityProviders,
  businesses,
  groups,
  machines,
  testMachines,
  bags,
  patients,
  signUps,
} as const;

export type Contract = typeof contract;
export type AreaName = keyof Contract;
export {
  AccessLevel,
  AddableRoleName,
  FrontEnd,
  LoginReason,
  ResourceType,
  Role,
  RoleName,
  RoleToAdd,
  SessionInfo,
  User,
} from './auth.ts';
export { BusinessInfo, infoPageSize } from './businesses.ts';
export * from './define.ts';
export { activateDeviceAuth } from './device-auth.ts';
export { GroupInfo } from './groups.ts';
export { IdentityProvider } from './identity-providers.ts';
export { MachineForm, machinesPageSize } from './machines.ts';
export { patientsBatchGetMax, patientsPageSize, patientsUpsertMax, UpsertOutcome, UpsertStatus } from './patients.ts';
export { SignUpForm, SignUpVerification, signUpCodes, signUpsPageSize } from './sign-ups.ts';
export { IdentityProviderRef, usersPageSize } from './users.ts';
