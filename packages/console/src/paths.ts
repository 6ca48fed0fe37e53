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

/** A business's or a group's own pages (`/businesses/{id}`, `/groups/{id}`). */
export const resourcePath = (kind: 'business' | 'group', id: string) =>
  kind === 'business' ? consolePaths.business(id) : consolePaths.group(id);

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

/**
 * The paths under one area of a business (`/businesses/{businessId}/machines`): the area's own page,
 * its fixed pages (`page('add')`), and one item's page and the pages under it (`item('/edit')`).
 */
function businessArea(area: string) {
  const of = (businessId: string) => `${consolePaths.business(businessId)}/${area}`;
  return {
    list: of,
    page: (page: string) => (businessId: string) => `${of(businessId)}/${page}`,
    item:
      (under = '') =>
      (businessId: string, id: string) =>
        `${of(businessId)}/${part(id)}${under}`,
  };
}

const machines = businessArea('machines');

/** `/businesses/{businessId}/machines/*`. */
export const machinePaths = {
  list: machines.list,
  add: machines.page('add'),
  machine: machines.item(),
  edit: machines.item('/edit'),
  evidence: machines.item('/evidence'),
};

const patients = businessArea('patients');

/** `/businesses/{businessId}/patients/*`. */
export const patientPaths = {
  list: patients.list,
  import: patients.page('import'),
  signUps: patients.page('signUps'),
  patient: patients.item(),
  edit: patients.item('/edit'),
};

const orders = businessArea('orders');

/** `/businesses/{businessId}/orders/*` (the top bar's search and the patient page link here too). */
export const orderPaths = {
  list: orders.list,
  add: orders.page('add'),
  /** Orders from a CSV file. */
  import: orders.page('import'),
  order: orders.item(),
  /** The print view of these orders' bag labels (it opens the browser's print when they are drawn). */
  labels: (businessId: string, orderIds: readonly string[]) =>
    `${orders.list(businessId)}/labels?ids=${orderIds.map(part).join(',')}`,
};

const integration = businessArea('settings/integration');

/** The integration settings and their webhook delivery console. */
export const webhookPaths = {
  integration: integration.list,
  deliveries: integration.page('webhooks'),
  delivery: businessArea('settings/integration/webhooks').item(),
};
