/**
 * What the audit trail's readers see for an action: the log stores dotted names (`order.read`,
 * `auth.login.failed`); people read "Order opened", "Sign-in refused (wrong password)". The actions
 * people ask about most have their own words; any other is spelt out from its name
 * (`patient.whatsAppOptIn` → "Patient: whats app opt in"), so an action added later is still readable.
 */
export const auditActionLabels: Readonly<Record<string, string>> = {
  'audit.search': 'Audit trail searched',
  'audit.export': 'Audit trail exported',
  'auth.login': 'Signed in',
  'auth.login.sso': 'Signed in (single sign-on)',
  'auth.login.failed': 'Sign-in refused (wrong password)',
  'auth.login.locked': 'Sign-in refused (locked)',
  'auth.login.throttled': 'Sign-in refused (too many tries)',
  'auth.login.disabled': 'Sign-in refused (account disabled)',
  'auth.login.forceReset': 'Sign-in: password reset required',
  'auth.logout': 'Signed out',
  'auth.password.change': 'Password changed',
  'auth.password.reset': 'Password reset',
  'auth.reset.requested': 'Password reset requested',
  'auth.sso.refused': 'Single sign-on refused',
  'message.read': 'Message shown',
  'message.list': 'Messages list shown',
  'order.create': 'Order created',
  'order.read': 'Order opened',
  'order.list': 'Orders list shown',
  'order.cancel': 'Order cancelled',
  'order.markCollected': 'Order marked collected',
  'order.markRemoved': 'Order marked removed',
  'order.revealPin': 'PIN revealed to staff',
  'order.pin.shownToPatient': 'PIN shown to the patient',
  'order.holdPin': 'PIN held',
  'order.releasePin': 'PIN released',
  'patient.create': 'Patient added',
  'patient.read': 'Patient record opened',
  'patient.list': 'Patients list shown',
  'patient.update': 'Patient changed',
  'patient.delete': 'Patient deleted',
  'patient.import': 'Patients imported',
  'patient.session.start': 'Patient signed in to their page',
  'patient.language.changed': 'Patient chose their language',
  'report.collectionRecords.list': 'Collection records shown',
  'report.collectionRecords.export': 'Collection records exported',
  'report.evidencePack': 'Evidence pack made',
  'role.add': 'Role added',
  'role.remove': 'Role removed',
  'role.invite': 'Role invitation sent',
  'session.list': 'Sessions shown',
  'session.end': 'Session ended',
  'signUp.read': 'Sign-up opened',
  'signUp.list': 'Sign-ups list shown',
  'user.create': 'User added',
  'user.list': 'Users list shown',
  'user.read': 'User opened',
  'user.update': 'User changed',
  'user.disable': 'User disabled',
  'user.enable': 'User enabled',
};

const words = (camel: string) => camel.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

/** The words for an action: its own, or its name spelt out ("Machine: pair"). */
export function auditActionLabel(action: string): string {
  const own = auditActionLabels[action];
  if (own) return own;
  const [head = '', ...rest] = action.split('.');
  const subject = words(head);
  const capital = subject.charAt(0).toUpperCase() + subject.slice(1);
  return rest.length === 0 ? capital : `${capital}: ${rest.map(words).join(' ')}`;
}
