import type { Browser, Page } from '@playwright/test';
import { expectAccessible } from './harness/axe.ts';
import {
  asAdmin,
  expect as baseExpect,
  baseURL,
  createBusiness,
  createGroup,
  createUser,
  logIn,
  logInAsAdmin,
  type SimulatedLocker,
  startLocker,
  stopLocker,
  test,
  uniqueEmail,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * WCAG 2.2 AA on every screen staff and patients use: axe-core (harness/axe.ts: levels A and AA of
 * WCAG 2.0–2.2, every impact) on each console screen as support staff and as a pharmacy's own Admin,
 * on the sign-in pages, and on each patient screen (identity check, payment or exemption, the PIN, the
 * sign-up page), each at a desktop width and at 390 px. One signed-in page per role walks its screens.
 * Left out of every check, with the reason, is harness/axe.ts's AXE_EXCLUDED (docs/ACCESSIBILITY.md).
 */

const expect = baseExpect.configure({ timeout: 30_000 });
// The four walks share nothing but the estate (made once per worker): two workers share them out.
test.describe.configure({ mode: 'parallel', timeout: 600_000 });

const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

/** The page as it is once its data came: its main heading shown and nothing still loading. */
async function settled(page: Page) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('.loading')).toHaveCount(0);
}

/** axe on the page at each width (the page is resized, not loaded again); every screen is checked before the test fails. */
async function checkWidths(page: Page, label: string) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await settled(page);
    await expectAccessible(page, `${label} at ${size.width} px`, { soft: true });
  }
}

/** Visits each screen in turn and checks it at both widths. */
async function checkScreens(page: Page, who: string, screens: [label: string, path: string][]) {
  for (const [label, path] of screens) {
    await page.setViewportSize(WIDTHS[0] ?? { width: 1280, height: 900 });
    await page.goto(path);
    await checkWidths(page, `${who}: ${label} (${path})`);
  }
}

type Estate = {
  businessId: string;
  groupId: string;
  machineId: string;
  patientId: string;
  orderId: string;
  chargedOrderId: string;
  freeOrderId: string;
  barcodes: string[];
  /** The business's own Admin. */
  pharmacist: { email: string; password: string; userId: string };
};

const DATE_OF_BIRTH = { day: '27', month: '3', year: '1985', iso: '1985-03-27' };

/**
 * A business in a group, with charges and card payments, online sign-ups, a machine taking payment, a
 * patient and three orders: one for staff to look at, one to pay for and one with nothing to pay.
 */
async function estate(): Promise<Estate> {
  const business = await createBusiness();
  const businessId = business.id;
  const signUpPage = new URL(`/signup/${businessId}`, baseURL).toString();
  const group = await createGroup();
  await asAdmin('businesses/linkGroup', { groupId: group.id, businessIds: [businessId] });
  await asAdmin('businessSettings/updateBusinessFeatureSettings', {
    businessId,
    settings: { charges: { enabled: true }, onlineSignups: { enabled: true, url: signUpPage } },
  });
  await asAdmin('paymentSettings/updatePaymentSettings', {
    businessId,
    contactNumber: '0113 496 0000',
    legalInfo: 'E2E Pharmacy Ltd',
    provider: null,
    judo: null,
  });
  const { machine } = await asAdmin<{ machine: { id: string } }>('machines/createMachine', {
    businessId,
    name: uniqueName('Front door'),
    numberOfSlots: 40,
    paymentsEnabled: true,
  });
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Pat', family: 'Quinlan' },
      mobileNumber: '07700 900123',
      dateOfBirth: DATE_OF_BIRTH.iso,
    },
  });
  const barcodes: string[] = [];
  const order = async (charge?: string) => {
    const barcode = uniqueName('RX').replace(' ', '-').toUpperCase();
    barcodes.push(barcode);
    const made = await asAdmin<{ order: { id: string } }>('orders/create', {
      businessId,
      patientId: patient.id,
      machineId: machine.id,
      barcode,
      ...(charge ? { prescriptionCharge: charge } : {}),
    });
    return made.order.id;
  };
  return {
    businessId,
    groupId: group.id,
    machineId: machine.id,
    patientId: patient.id,
    orderId: await order(),
    chargedOrderId: await order('9.90'),
    freeOrderId: await order(),
    barcodes,
    pharmacist: await createUser({ role: { name: 'Business', resource: businessId, accessLevels: ['Admin'] } }),
  };
}

/** The screens of one business that support staff and its own staff both use. */
function businessScreens(made: Estate): [string, string][] {
  const b = `/businesses/${made.businessId}`;
  return [
    ['the orders list', `${b}/orders`],
    ['an order', `${b}/orders/${made.orderId}`],
    ['the new order form', `${b}/orders/add`],
    ['the patients list', `${b}/patients`],
    ['a patient', `${b}/patients/${made.patientId}`],
    ['the patient import', `${b}/patients/import`],
    ['the sign-ups list', `${b}/patients/signUps`],
    ['the machines list', `${b}/machines`],
    ['a machine', `${b}/machines/${made.machineId}`],
    ["the business's users", `${b}/users`],
    ['the settings', `${b}/settings`],
    ['the feature settings', `${b}/settings/features`],
    ['the payment settings', `${b}/settings/payment`],
    ['the SMS templates', `${b}/settings/sms`],
    ['the integration settings', `${b}/settings/integration`],
    ['the retention settings', `${b}/settings/retention`],
    ['the messages', `${b}/messages`],
    ['the reports', `${b}/stats`],
    ['the audit trail', '/audit'],
    ['the notifications', '/notifications'],
    ['the account', '/account'],
  ];
}

let made: Estate;
let locker: SimulatedLocker | undefined;

test.beforeAll(async () => {
  made = await estate();
});

test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

test('the sign-in pages pass axe at desktop and phone widths', async ({ page }) => {
  await page.goto('/auth/login');
  await checkWidths(page, 'sign-in: the email step');
  // Nobody's address (a wrong password for a real one would count towards its lockout).
  await page.getByLabel('Email address').fill(uniqueEmail('nobody'));
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Password').fill('not-the-password-at-all');
  await checkWidths(page, 'sign-in: the password step');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Invalid username or password').first()).toBeVisible();
  await checkWidths(page, 'sign-in: a refused password');
  await page.goto('/auth/reset/begin');
  await checkWidths(page, 'sign-in: the password reset');
});

test('the check fails on a WCAG problem, and again after the page changed', async ({ page }) => {
  await page.goto('/auth/login');
  await expectAccessible(page, 'sign-in: the email step');
  // An image without a text alternative, then, in the same document, an unnamed button.
  await page.evaluate(() => document.querySelector('main')?.append(Object.assign(new Image(1, 1), { src: '/x.png' })));
  await expect(expectAccessible(page, 'a planted image')).rejects.toThrow(/image-alt/);
  await page.evaluate(() => {
    document.querySelector('main img')?.remove();
    document.querySelector('main')?.append(document.createElement('button'));
  });
  await expect(expectAccessible(page, 'a planted button')).rejects.toThrow(/button-name/);
});

/** Support staff's screens: the fleet's, then one business's. */
function supportScreens(made: Estate): [string, string][] {
  return [
    ['the dashboard', '/'],
    ['the businesses list', '/businesses'],
    ['a business', `/businesses/${made.businessId}`],
    ['the groups list', '/groups'],
    ['a group', `/groups/${made.groupId}`],
    ["a group's businesses", `/groups/${made.groupId}/businesses`],
    ["a group's reports", `/groups/${made.groupId}/stats`],
    ['the users list', '/users'],
    ['a user', `/users/${made.pharmacist.userId}`],
    ['the global settings', '/globalSettings'],
    ['the alarm message templates', '/alarmMessageTemplates'],
    ['the jobs', '/jobs'],
    ['the mailbox', '/mailbox'],
    ['the identity providers', '/identityProviders'],
    ['the invitations', '/invitations'],
    ...businessScreens(made),
  ];
}

/** A pharmacy's own Admin's screens: their dashboard, their business's, and a user of it. */
function pharmacyScreens(made: Estate): [string, string][] {
  return [
    ['the dashboard', '/'],
    ...businessScreens(made),
    ["a user of the business's", `/businesses/${made.businessId}/users/${made.pharmacist.userId}`],
  ];
}

/** Part `part` of `parts` of the screens: the walks are split so that each fits a test's time on a busy machine. */
const partOf = <T>(all: T[], part: number, parts: number) =>
  all.slice(Math.ceil((all.length * part) / parts), Math.ceil((all.length * (part + 1)) / parts));

/** Signs the pharmacy's Admin in, naming them the first time (complete profile). */
async function signInAsPharmacist(page: Page) {
  await page.goto('/auth/login');
  await logIn(page, made.pharmacist.email, made.pharmacist.password);
  const firstName = page.getByLabel('First name');
  const dashboard = page.getByRole('heading', { level: 1, name: 'Dashboard' });
  await expect(firstName.or(dashboard)).toBeVisible();
  if (await firstName.isVisible()) {
    await firstName.fill('Pat');
    await page.getByLabel('Surname').fill('Pharmacist');
    await page.getByRole('button', { name: 'Save' }).click();
  }
  await expect(dashboard).toBeVisible();
}

const PARTS = 3;
for (let part = 0; part < PARTS; part++) {
  test(`console screens pass axe for support staff at desktop and phone widths (part ${part + 1} of ${PARTS})`, async ({
    page,
  }) => {
    await logInAsAdmin(page);
    await checkScreens(page, 'support', partOf(supportScreens(made), part, PARTS));
  });

  test(`console screens pass axe for a pharmacy's own Admin at desktop and phone widths (part ${part + 1} of ${PARTS})`, async ({
    page,
  }) => {
    await signInAsPharmacist(page);
    await checkScreens(page, 'pharmacy', partOf(pharmacyScreens(made), part, PARTS));
  });
}

test('every patient screen passes axe at desktop and phone widths', async ({ browser }) => {
  // A second try when the simulator is slow to start on a loaded machine.
  const started = await startLocker().catch(() => startLocker());
  locker = started;
  await asAdmin('auth/activateDeviceAuth', { machineId: made.machineId, userCode: started.userCode });
  await expect.poll(async () => (await started.view()).status).toBe('online');
  for (const [i, barcode] of made.barcodes.entries()) {
    await started.control({ do: 'loadBag', barcode, location: `B${i + 1}` });
  }

  await patientScreens(browser, made.chargedOrderId, async (page) => {
    await page.getByRole('button', { name: 'Declare an exemption' }).click();
    await expect(page.getByRole('heading', { name: 'Declare an exemption' })).toBeVisible();
    await checkWidths(page, 'patient: the exemption form');
    await page.getByRole('button', { name: 'Declare and continue' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toBeFocused();
    await checkWidths(page, 'patient: the exemption form with its errors');
  });
  await patientScreens(browser, made.freeOrderId, async (page) => {
    await expect(page.getByTestId('pin')).toHaveText(/^\d{4} \d{4}$/);
    await checkWidths(page, 'patient: an order with its PIN');
  });

  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`/signup/${made.businessId}`);
    await checkWidths(page, 'patient: the sign-up form');
    await page
      .getByRole('button', { name: /continue|sign up/i })
      .first()
      .click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await checkWidths(page, 'patient: the sign-up form with its errors');
  } finally {
    await context.close();
  }
});

/** The identity check and the order page behind it, in a browser of their own; then `more`. */
async function patientScreens(browser: Browser, orderId: string, more: (page: Page) => Promise<void>) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`/p/${orderId}`);
    await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
    await checkWidths(page, 'patient: the identity check');
    await page.getByLabel('Day').fill(DATE_OF_BIRTH.day);
    await page.getByLabel('Month').fill(DATE_OF_BIRTH.month);
    await page.getByLabel('Year').fill(DATE_OF_BIRTH.year);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: /^Your order from |^Pay / }).first()).toBeVisible();
    await checkWidths(page, 'patient: the order page');
    await more(page);
  } finally {
    await context.close();
  }
}
