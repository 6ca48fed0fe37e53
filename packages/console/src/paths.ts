/**
 * The console's URLs (SPEC §2), every area's in one place: links and navigation build them here; the
 * route tables (routes.tsx, signed-in-routes.tsx and each area's *Routes.tsx) match them. This module
 * imports nothing, so any page may link to any other without loading it.
 */

const part = encodeURIComponent;

/** The sign-in pages and the console's top-level pages. */
export const consolePaths = {
  login: '/auth/login',
  register: '/auth/register',
  resetBegin: '/auth/reset/begin',
  reset: '/auth/reset',
  dashboard: '/',
  businesses: '/businesses',
  business: (id: string) => `/businesses/${part(id)}`,
  groups: '/groups',
  group: (id: string) => `/groups/${part(id)}`,
  /** The signed-in user's own account: password and sessions (issue 37 §2). */
  account: '/account',
  users: '/users',
  addUser: (role: string, resource?: string) => `/users/add/${part(role)}${resource ? `/${part(resource)}` : ''}`,
  user: (id: string) => `/users/${part(id)}`,
  alarmMessageTemplates: '/alarmMessageTemplates',
  globalSettings: '/globalSettings',
  invitations: '/invitations',
  /** The audit trail; `?patient=` is "who looked at this patient". */
  audit: '/audit',
  patientAudit: (patientId: string) => `/audit?patient=${part(patientId)}`,
} as const;

/** A business's section pages (the shell's menu, the business tabs). */
export function businessSectionPaths(businessId: string) {
  const base = consolePaths.business(businessId);
  return {
    patients: `${base}/patients`,
    machines: `${base}/machines`,
    users: `${base}/users`,
    settings: `${base}/settings`,
  };
}

const machinesOf = (businessId: string) => `${consolePaths.business(businessId)}/machines`;

/** `/businesses/{businessId}/machines/*`. */
export const machinePaths = {
  list: machinesOf,
  add: (businessId: string) => `${machinesOf(businessId)}/add`,
  machine: (businessId: string, machineId: string) => `${machinesOf(businessId)}/${part(machineId)}`,
  edit: (businessId: string, machineId: string) => `${machinesOf(businessId)}/${part(machineId)}/edit`,
  evidence: (businessId: string, machineId: string) => `${machinesOf(businessId)}/${part(machineId)}/evidence`,
};

const patientsOf = (businessId: string) => `${consolePaths.business(businessId)}/patients`;

/** `/businesses/{businessId}/patients/*`. */
export const patientPaths = {
  list: patientsOf,
  import: (businessId: string) => `${patientsOf(businessId)}/import`,
  signUps: (businessId: string) => `${patientsOf(businessId)}/signUps`,
  patient: (businessId: string, id: string) => `${patientsOf(businessId)}/${part(id)}`,
  edit: (businessId: string, id: string) => `${patientsOf(businessId)}/${part(id)}/edit`,
};

const ordersOf = (businessId: string) => `${consolePaths.business(businessId)}/orders`;

/** `/businesses/{businessId}/orders/*` (the top bar's search and the patient page link here too). */
export const orderPaths = {
  list: ordersOf,
  add: (businessId: string) => `${ordersOf(businessId)}/add`,
  /** Orders from a CSV file. */
  import: (businessId: string) => `${ordersOf(businessId)}/import`,
  order: (businessId: string, orderId: string) => `${ordersOf(businessId)}/${part(orderId)}`,
  /** The print view of these orders' bag labels (it opens the browser's print when they are drawn). */
  labels: (businessId: string, orderIds: readonly string[]) =>
    `${ordersOf(businessId)}/labels?ids=${orderIds.map(part).join(',')}`,
};

const integrationOf = (businessId: string) => `${consolePaths.business(businessId)}/settings/integration`;

/** The integration settings and their webhook delivery console. */
export const webhookPaths = {
  integration: integrationOf,
  deliveries: (businessId: string) => `${integrationOf(businessId)}/webhooks`,
  delivery: (businessId: string, id: string) => `${integrationOf(businessId)}/webhooks/${part(id)}`,
};
