export {
  changePassword,
  enableUser,
  endOtherSessions,
  endSession,
  getAccountStatus,
  listSessions,
} from './account-service.ts';
export { disableInactiveAccounts } from './inactive-accounts.ts';
export {
  acceptInvitation,
  cancelInvitation,
  declineInvitation,
  listInvitations,
  listMyInvitations,
} from './invitations-service.ts';
export { linkOrigin, type Site, siteOf } from './mails.ts';
export {
  NHS_LOGIN_COOKIE,
  NHS_LOGIN_TTL_MS,
  type NhsLoginOutcome,
  nhsLoginCallback,
  nhsLoginCallbackPath,
  patientSignInOptions,
  startNhsLogin,
} from './nhs-login.ts';
export { addPatientMobile, listPatientMobile, removePatientMobile } from './patient-mobiles.ts';
export { endPatientSession, patientSessionInfo, verifyPatient, verifySms, verifySmsCode } from './patient-service.ts';
export { addRoles, editIdentityProvider, removeRole } from './roles-service.ts';
export {
  beginPasskeySetup,
  beginTotpSetup,
  finishPasskeySetup,
  finishTotpSetup,
  listSecondFactors,
  regenerateRecoveryCodes,
  removeSecondFactor,
  resetSecondFactors,
} from './second-factor-service.ts';
export { beginPasskeySignIn } from './second-factor-sign-in.ts';
export {
  beginResetPassword,
  completeResetPassword,
  config,
  getIdentityProviderAuthUrl,
  login,
  logout,
  register,
  session,
} from './service.ts';
export { verifySecondFactor } from './sign-in-step.ts';
