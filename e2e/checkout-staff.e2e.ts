import { type Page, request as playwrightRequest } from '@playwright/test';
import {
  asAdmin,
  expect as baseExpect,
  baseURL,
  call,
  createBusiness,
  createUser,
  demoBusiness,
  logIn,
  logInAsAdmin,
  mailTo,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/**
 * What staff see of the checkout: where the pharmacy is (Wales has no prescription charge),
 * an exemption a patient declared on the patient page (with the signature), and a paid order's payment
 * with Send receipt; each for support staff and for a pharmacy user of the business.
 */

// A full page load evaluates core's contract (arktype types): several seconds on a loaded machine.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

/** A 1×1 PNG, as the patient page's signature pad would send a (very small) drawing. */
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

type Order = { id: string; reference: string; patientName: string };

/**
 * A business charging prescriptions and retail items, a patient with a date of birth, and a £9.90 order
 * of theirs (with a retail charge too when given, in pounds).
 */
async function chargedOrder(businessId: string, retailCharge?: string): Promise<Order> {
  await asAdmin('businessSettings/updateBusinessFeatureSettings', {
    businessId,
    settings: { charges: { enabled: true }, retailCharges: { enabled: true } },
  });
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Dora', family: 'Declan' },
      mobileNumber: '07700 900222',
      dateOfBirth: '1961-03-04',
    },
  });
  const { order } = await asAdmin<{ order: Order }>('orders/create', {
    businessId,
    patientId: patient.id,
    barcode: uniqueName('RX').replace(' ', '-').toUpperCase(),
    prescriptionCharge: '9.90',
    ...(retailCharge ? { retailCharge } : {}),
  });
  return order;
}

/**
 * The patient declares exemption F on the patient page's API, from their own phone (a request context
 * of its own: the patient session's cookie never meets the staff console's).
 */
async function declareAsPatient(orderId: string) {
  const phone = await playwrightRequest.newContext({ baseURL });
  try {
    await call(phone, 'auth/verifyPatient', { orderId, dateOfBirth: '1961-03-04' });
    await call(phone, 'checkout/declareExemption', {
      orderId,
      exemptionCode: 'F',
      nameOfDeclarant: 'Alex Carer',
      onBehalfOfPatient: true,
      signature: SIGNATURE,
    });
  } finally {
    await phone.dispose();
  }
}

async function expectDeclaration(page: Page, order: Order, payment = 'Exemption declared') {
  // The exemption waives the prescription charge only: a retail charge is still to pay.
  await expect(page.getByRole('definition').filter({ hasText: payment })).toHaveText(payment);
  const part = page.getByRole('region', { name: 'Exemption declaration' });
  await expect(part).toBeVisible();
  await expect(part).toContainText('F: prescription prepayment certificate');
  await expect(part).toContainText('Alex Carer');
  await expect(part).toContainText('Yes, by a representative');
  const signature = part.getByRole('img', { name: 'Signature of Alex Carer' });
  await expect(signature).toBeVisible();
  await expect(signature).toHaveAttribute('src', SIGNATURE);
  // The timeline says it, naming the patient page as where it came from.
  const row = page.getByRole('grid', { name: 'Timeline' }).getByRole('row').filter({
    hasText: 'Exemption F (prescription prepayment certificate) declared by Alex Carer, on behalf of the patient',
  });
  await expect(row).toContainText(`${order.patientName} (patient)`);
  await expect(row).toContainText('Patient page');
}

/** Logs a new pharmacy user in, completing the profile the console asks of them first. */
async function logInAsPharmacyUser(page: Page, businessId: string, admin: boolean) {
  const user = await createUser({
    role: { name: 'Business', resource: businessId, accessLevels: admin ? ['Admin'] : [] },
  });
  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await page.getByLabel('First name').fill('Priya', { timeout: 30_000 });
  await page.getByLabel('Surname').fill('Patel');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
}

/** Sets where the pharmacy is on the Features page and checks the prescription charges switch follows. */
async function moveToWales(page: Page, businessId: string) {
  await page.goto(`/businesses/${businessId}/settings/features`);
  const charges = page.getByRole('switch', { name: 'Prescription charges' });
  await expect(charges).toBeChecked();
  await page.getByRole('button', { name: 'Where the pharmacy is' }).click();
  await page.getByRole('option', { name: 'Wales' }).click();
  await expect(charges).not.toBeChecked();
  await expect(charges).toBeDisabled();
  await expect(page.getByText('No NHS prescription charges in Wales.')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Feature settings saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Where the pharmacy is' })).toContainText('Wales');
  await expect(page.getByRole('switch', { name: 'Prescription charges' })).not.toBeChecked();
}

test('support staff see a declared exemption with its signature, and move a pharmacy to Wales', async ({ page }) => {
  const business = await createBusiness();
  const order = await chargedOrder(business.id);
  await declareAsPatient(order.id);
  await logInAsAdmin(page, `/businesses/${business.id}/orders/${order.id}`);
  await expectDeclaration(page, order);

  // The declared order is settled, so the pharmacy may move: its orders never carry a charge again.
  await moveToWales(page, business.id);
  await page.goto(`/businesses/${business.id}/orders/add`);
  await expect(page.getByLabel('Barcode')).toBeVisible();
  await expect(page.getByLabel('Prescription charge (£)')).toHaveCount(0);
});

test('a pharmacy administrator sees the declaration and moves their pharmacy to Wales', async ({ page }) => {
  const business = await createBusiness();
  const order = await chargedOrder(business.id);
  await declareAsPatient(order.id);
  await logInAsPharmacyUser(page, business.id, true);
  await page.goto(`/businesses/${business.id}/orders/${order.id}`);
  await expectDeclaration(page, order);
  await moveToWales(page, business.id);
});

const stillOwed = 'Unpaid: £2.00 to pay (the retail charge; the exemption covers the prescription charge)';

test('support staff and a pharmacy user see an exemption on an order with a retail charge too, the retail charge still owed', async ({
  page,
  browser,
}) => {
  const business = await createBusiness();
  const order = await chargedOrder(business.id, '2.00');
  await declareAsPatient(order.id);
  await logInAsAdmin(page, `/businesses/${business.id}/orders/${order.id}`);
  await expectDeclaration(page, order, stillOwed);
  await expect(page.getByRole('grid', { name: 'Timeline' })).toContainText(
    'the retail charge of £2.00 is still to pay',
  );

  const context = await browser.newContext({ baseURL });
  try {
    const theirs = await context.newPage();
    await logInAsPharmacyUser(theirs, business.id, false);
    await theirs.goto(`/businesses/${business.id}/orders/${order.id}`);
    await expectDeclaration(theirs, order, stillOwed);
  } finally {
    await context.close();
  }
});

test('a pharmacy with a live charged order is not moved to Scotland, and says why', async ({ page }) => {
  const business = await createBusiness();
  await chargedOrder(business.id);
  await logInAsAdmin(page, `/businesses/${business.id}/settings/features`);
  await page.getByRole('button', { name: 'Where the pharmacy is' }).click();
  await page.getByRole('option', { name: 'Scotland' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page
      .getByText(
        '1 live order still asks a prescription charge: settle or cancel it before moving the pharmacy to Scotland',
      )
      .first(),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Where the pharmacy is' })).toContainText('England');
});

/** The receipt mail of an order (other mail to the demo patient may come first). */
async function receiptMail(email: string, reference: string) {
  for (let n = 0; n < 5; n++) {
    const mail = await mailTo(email, 20_000);
    if (mail.subject.includes(`(order ${reference})`)) return mail;
  }
  throw new Error(`no receipt mail for order ${reference}`);
}

type PaidOrder = Order & { businessId: string; paymentId: string };

/** The demo seed's paid orders and their patients' email addresses (null: the receipt goes by SMS). */
async function paidDemoOrders(): Promise<{ order: PaidOrder; email: string | null }[]> {
  // The demo's paid orders are Harborne's; other specs' businesses may fill the first page of the list.
  const found: { order: PaidOrder; email: string | null }[] = [];
  for (const business of [await demoBusiness('Harborne High Street Pharmacy')]) {
    const { orders } = await asAdmin<{ orders: (PaidOrder & { paymentStatus: string; patientId: string })[] }>(
      'orders/listOrdersByBusiness',
      { businessId: business.id },
    );
    for (const order of orders.filter((o) => o.paymentStatus === 'paid')) {
      const { patient } = await asAdmin<{ patient: { email: string | null } }>('patients/get', { id: order.patientId });
      found.push({ order, email: patient.email });
    }
  }
  return found;
}

/** Opens the order's timeline page by page until a row says this. */
async function timelineRow(page: Page, text: string) {
  const row = page.getByRole('grid', { name: 'Timeline' }).getByRole('row').filter({ hasText: text });
  const more = page.getByRole('button', { name: 'Show more' });
  for (let n = 0; n < 10 && (await row.count()) === 0 && (await more.isVisible()); n++) {
    await more.click();
    await expect(more.or(row).first()).toBeVisible();
  }
  return row;
}

test("support staff send a paid order's receipt; a pharmacy user sees the payment and is told to wait", async ({
  page,
  browser,
}) => {
  // The demo seed has one paid order (no test here can pay: the harness has no Judopay).
  const [paid] = await paidDemoOrders();
  if (!paid) throw new Error('the demo seed has no paid order');
  const { order, email } = paid;
  await logInAsAdmin(page, `/businesses/${order.businessId}/orders/${order.id}`);
  const payment = page.getByRole('region', { name: 'Payment' });
  await expect(payment).toContainText(order.paymentId);
  await expect(payment).toContainText('Receipt sent to the patient');
  await payment.getByRole('button', { name: 'Send receipt' }).click();
  await expect(page.getByText(/^Receipt sent by (email|SMS) to /)).toBeVisible();
  if (email) {
    const masked = `${email.slice(0, 1)}•••@${email.split('@')[1]}`;
    await expect(page.getByText(`Receipt sent by email to ${masked}`)).toBeVisible();
    const mail = await receiptMail(email, order.reference);
    expect(mail.text).toContain(`Card payment receipt: ${order.paymentId}`);
    expect(mail.text).toContain('by card');
  }
  await expect(await timelineRow(page, 'Receipt for ')).toBeVisible();

  // A pharmacy user of the business, in their own browser: the same payment, and the limit's answer.
  const context = await browser.newContext({ baseURL });
  try {
    const theirs = await context.newPage();
    await logInAsPharmacyUser(theirs, order.businessId, false);
    await theirs.goto(`/businesses/${order.businessId}/orders/${order.id}`);
    const shown = theirs.getByRole('region', { name: 'Payment' });
    await expect(shown).toContainText(order.paymentId);
    await expect(shown.getByText('Yes', { exact: true })).toBeVisible();
    await shown.getByRole('button', { name: 'Send receipt' }).click();
    await expect(theirs.getByText(/The receipt was sent a moment ago/)).toBeVisible();
    await expect(await timelineRow(theirs, 'Receipt for ')).toHaveCount(1);
  } finally {
    await context.close();
  }
});
