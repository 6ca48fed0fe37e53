import type { Page } from '@playwright/test';
import { expectAccessible as accessible } from './harness/axe.ts';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  mailTo,
  type SimulatedLocker,
  smsTo,
  startLocker,
  stopLocker,
  test,
  uniqueEmail,
  uniqueName,
} from './harness/fixtures.ts';
import { e2eJudoCards } from './harness/judopay.ts';

/**
 * The patient page, on a phone (390×844): a patient opens the link in their text, proves who
 * they are, pays on Judopay's hosted page (the harness's local Judopay) or declares an exemption, sees
 * the PIN, and a simulated locker opens for it. axe-core checks every state the patient sees.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
test.describe.configure({ timeout: 150_000 });

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

const DATE_OF_BIRTH = { day: '27', month: '3', year: '1985', iso: '1985-03-27' };

type Estate = {
  businessId: string;
  orderId: string;
  /** The patient's mobile as the gateway sees it (447…). */
  destination: string;
  digits: string;
};

/**
 * A business on The SMS Works with a patient (date of birth on record) and an order. `charged`: £9.90,
 * with charges on and Judopay payment settings saved through the API (the harness's account), at a
 * machine taking payment. `loaded`: a simulated locker pairs with the machine and loads the bag (the
 * patient's text is sent then).
 */
async function estate(options: {
  charged: boolean;
  loaded: boolean;
  /** A retail charge too, in pounds ('2.50'): retail charges are switched on. */
  retail?: string;
  /** The patient's email address (none unless given). */
  email?: string;
  /** Charged, but no prescription charge (a retail charge alone). */
  noPrescription?: boolean;
  /** Charged, but the pharmacy has no card payments (payment settings with its contact number, no Judopay). */
  noCards?: boolean;
}): Promise<Estate> {
  const business = await createBusiness();
  const businessId = business.id;
  await asAdmin('businessSettings/updateBusinessControlledSettings', {
    businessId,
    settings: { smsGateway: 'thesmsworks' },
  });
  if (options.charged) {
    await asAdmin('businessSettings/updateBusinessFeatureSettings', {
      businessId,
      settings: { charges: { enabled: true }, ...(options.retail ? { retailCharges: { enabled: true } } : {}) },
    });
  }
  if (options.charged && options.noCards) {
    await asAdmin('paymentSettings/updatePaymentSettings', {
      businessId,
      contactNumber: '0113 496 0000',
      legalInfo: 'E2E Pharmacy Ltd',
      provider: null,
      judo: null,
    });
  }
  if (options.charged && !options.noCards) {
    await asAdmin('paymentSettings/updatePaymentSettings', {
      businessId,
      contactNumber: '0113 496 0000',
      legalInfo: 'E2E Pharmacy Ltd',
      ...e2eJudoCards({ showVisa: true, showAmex: false, showMastercard: true }),
    });
  }
  const { machine } = await asAdmin<{ machine: { id: string } }>('machines/createMachine', {
    businessId,
    name: uniqueName('Front door'),
    numberOfSlots: 40,
    paymentsEnabled: options.charged,
  });
  // A number no other test uses, so the local gateway's texts to it are this test's.
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Pat', family: 'Quinlan' },
      mobileNumber: `07700 9${digits}`,
      dateOfBirth: DATE_OF_BIRTH.iso,
      ...(options.email ? { email: options.email } : {}),
    },
  });
  const barcode = uniqueName('RX').replace(' ', '-').toUpperCase();
  const { order } = await asAdmin<{ order: { id: string } }>('orders/create', {
    businessId,
    patientId: patient.id,
    machineId: machine.id,
    barcode,
    ...(options.charged && !options.noPrescription ? { prescriptionCharge: '9.90' } : {}),
    ...(options.retail ? { retailCharge: options.retail } : {}),
  });
  if (options.loaded) {
    const started = await startLocker();
    locker = started;
    await asAdmin('auth/activateDeviceAuth', { machineId: machine.id, userCode: started.userCode });
    await expect.poll(async () => (await started.view()).status).toBe('online');
    await started.control({ do: 'loadBag', barcode, location: 'B4' });
  }
  return { businessId, orderId: order.id, destination: `4477009${digits}`, digits };
}

/** The link in a text (the short link /u/{code}). */
function linkIn(text: string): string {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no link in the text: ${text}`);
  return link;
}

async function confirmDateOfBirth(page: Page, date = DATE_OF_BIRTH) {
  await page.getByLabel('Day').fill(date.day);
  await page.getByLabel('Month').fill(date.month);
  await page.getByLabel('Year').fill(date.year);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a patient opens the text’s link, confirms their date of birth, pays £9.90 by card, and the locker opens with the PIN', async ({
  page,
}) => {
  const email = uniqueEmail('pat');
  const made = await estate({ charged: true, loaded: true, email });
  const text = await smsTo(made.destination);
  expect(text.content).toContain('needs paying before you collect it');

  await page.goto(linkIn(text.content));
  await expect(page).toHaveURL(new RegExp(`/p/${made.orderId}$`));
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await expect(page).toHaveTitle(/^Confirm it is you – /);
  await accessible(page, 'the identity check');

  await confirmDateOfBirth(page);
  await expect(page.getByRole('heading', { name: /^Your order from / })).toBeVisible();
  await expect(page.getByText('Hello Pat')).toBeVisible();
  await expect(page.getByText('Ready once paid')).toBeVisible();
  await expect(page.getByTestId('pin')).toHaveCount(0);
  await expect(page.getByRole('definition').filter({ hasText: /^B4$/ })).toBeVisible();
  await expect(page.getByText(/^\d{1,2}:\d{2}(am|pm), \w+day \d{1,2} \w+/).first()).toBeVisible();
  // The schemes the pharmacy accepts (Amex is off in its settings), beside Pay by card.
  await expect(page.getByRole('button', { name: 'Pay by card' })).toHaveAccessibleDescription(
    'Cards accepted: Visa and Mastercard',
  );
  await accessible(page, 'an unpaid order');

  // A declined card first: back on the page, the patient is told and may try again.
  await page.getByRole('button', { name: 'Pay by card' }).click();
  // Judopay's hosted page (the local one): the amount is the server's.
  await expect(page.getByRole('heading', { name: 'Pay £9.90' })).toBeVisible();
  await page.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByText('Your card payment was declined, so no money was taken.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/p/${made.orderId}$`));
  await expect(page.getByRole('heading', { name: 'Try again' })).toBeVisible();
  await expect(page.getByTestId('pin')).toHaveCount(0);
  await accessible(page, 'a declined payment');

  await page.getByRole('button', { name: 'Pay by card' }).click();
  await expect(page.getByRole('heading', { name: 'Pay £9.90' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();

  // Back on the order's page: the receipt is confirmed, taken off the address, and the PIN shows.
  await expect(page.getByText('Payment received. Thank you.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/p/${made.orderId}$`));
  const pin = page.getByTestId('pin');
  await expect(pin).toHaveText(/^\d{4} \d{4}$/);
  await expect(page.getByText('Paid £9.90 by card')).toBeVisible();
  await expect(page.getByText('Ready to collect')).toBeVisible();
  await accessible(page, 'a paid order with its PIN');

  // The patient asks for a receipt: the server sends it by email (the pharmacy has an address) and
  // says where, masked; it arrives with what was paid and never the PIN.
  await page.getByRole('button', { name: 'Send me a receipt' }).click();
  const sentTo = `${email.slice(0, 1)}•••@${email.split('@')[1]}`;
  await expect(page.getByRole('status').filter({ hasText: 'Receipt sent' })).toHaveText(
    `Receipt sent by email to ${sentTo}.`,
  );
  const receipt = await mailTo(email);
  expect(receipt.subject).toMatch(/^Your receipt from /);
  expect(receipt.text).toContain('Amount paid: £9.90 by card');
  expect(receipt.text).not.toContain(((await page.getByTestId('pin').textContent()) ?? '').replace(/\s/g, ''));
  // Again at once: the server's one-a-minute limit, in its words beside the button.
  await page.getByRole('button', { name: 'Send it again' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toContainText(
    /The receipt was sent a moment ago\. Please wait \d+ seconds before asking again\./,
  );
  await accessible(page, 'a paid order with its receipt sent');
  // Read again later, the page still says where the receipt went.
  await page.reload();
  await expect(page.getByText(`Receipt sent to ${sentTo}.`)).toBeVisible();

  const shown = ((await pin.textContent()) ?? '').replace(/\s/g, '');
  const { order } = await asAdmin<{ order: { paymentStatus: string; amountPaid: number } }>('orders/get', {
    id: made.orderId,
  });
  expect([order.paymentStatus, order.amountPaid]).toEqual(['paid', 990]);

  // At the locker: the PIN from the page opens the slot and the patient takes the bag.
  const started = locker;
  if (!started) throw new Error('no locker');
  await started.control({ do: 'enterPin', pin: shown });
  await started.control({ do: 'collectBag' });
  await expect
    .poll(async () => (await asAdmin<{ order: { status: string } }>('orders/get', { id: made.orderId })).order.status)
    .toBe('collected');

  // The page, read again, shows the history and no PIN.
  await page.reload();
  await expect(page.getByText('This order has been collected.')).toBeVisible();
  await expect(page.getByTestId('pin')).toHaveCount(0);
  await accessible(page, 'a collected order');
});

test('another patient declares exemption F with a drawn signature and sees the PIN', async ({ page }) => {
  const made = await estate({ charged: true, loaded: true });
  await page.goto(linkIn((await smsTo(made.destination)).content));
  await confirmDateOfBirth(page);
  await page.getByRole('button', { name: 'Declare an exemption' }).click();
  await expect(page.getByRole('heading', { name: 'Declare an exemption' })).toBeVisible();
  await accessible(page, 'the exemption form');

  // Sent empty: every field says what it needs, and the summary takes focus.
  await page.getByRole('button', { name: 'Declare and continue' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('Select the exemption that applies');
  await expect(summary).toContainText('Sign in the box');
  await accessible(page, 'the exemption form with errors');

  // M ended on 6 April 2025; W is for HRT items only.
  await expect(page.getByLabel(/^M: /)).toHaveCount(0);
  await expect(page.getByLabel(/^W: HRT prescription prepayment certificate/)).toBeVisible();
  await expect(page.getByText('Only for HRT (hormone replacement therapy) items')).toBeVisible();

  await page.getByLabel('F: Prescription prepayment certificate').check();
  await page.getByLabel('Full name of the person declaring').fill('Alex Carer');
  await page.getByLabel('No, I am declaring on behalf of the patient').check();
  const pad = page.locator('canvas#signature');
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('the signature pad is not shown');
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(box.x + 20 + i * 20, box.y + box.height / 2 + (i % 2 === 0 ? -30 : 30), { steps: 3 });
  }
  await page.mouse.up();
  await page.getByRole('button', { name: 'Declare and continue' }).click();

  await expect(page.getByText('Your exemption has been declared. Thank you.')).toBeVisible();
  await expect(page.getByTestId('pin')).toHaveText(/^\d{4} \d{4}$/);
  await expect(page.getByText('Exemption declared: F (prescription prepayment certificate)')).toBeVisible();
  await accessible(page, 'a declared order with its PIN');

  const { order } = await asAdmin<{
    order: {
      paymentStatus: string;
      exemptionCode: string;
      exemptionDetails: { nameOfDeclarant: string; onBehalfOfPatient: boolean; signature: string };
    };
  }>('orders/get', { id: made.orderId });
  expect(order.paymentStatus).toBe('exemption_declared');
  expect(order.exemptionCode).toBe('F');
  expect(order.exemptionDetails.nameOfDeclarant).toBe('Alex Carer');
  expect(order.exemptionDetails.onBehalfOfPatient).toBe(true);
  expect(order.exemptionDetails.signature).toMatch(/^data:image\/png;base64,/);
  // The drawing, within the server's 64 KB.
  const png = Buffer.from(order.exemptionDetails.signature.split(',')[1] ?? '', 'base64');
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeGreaterThan(500);
  expect(png.length).toBeLessThanOrEqual(64 * 1024);
});

test('with a retail charge too, the patient declares an exemption, pays the retail part by card, then sees the PIN and gets a receipt by text', async ({
  page,
}) => {
  const made = await estate({ charged: true, loaded: true, retail: '2.50' });
  await page.goto(linkIn((await smsTo(made.destination)).content));
  await confirmDateOfBirth(page);
  await expect(page.getByRole('heading', { name: 'Pay £12.40' })).toBeVisible();
  await expect(
    page.getByText(
      'There is £12.40 to pay for this order: the £9.90 NHS prescription charge and £2.50 for other items.',
    ),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Declare an exemption' }).click();
  await expect(page.getByRole('heading', { name: 'Declare an exemption' })).toBeVisible();
  await expect(page.getByText('If you do not have to pay the £9.90 prescription charge')).toBeVisible();
  await expect(page.getByText('the £2.50 for other items in this order still has to be paid by card')).toBeVisible();
  await page.getByLabel('F: Prescription prepayment certificate').check();
  await page.getByLabel('Full name of the person declaring').fill('Pat Quinlan');
  await page.getByLabel('Yes, I am the patient').check();
  const pad = page.locator('canvas#signature');
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('the signature pad is not shown');
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) {
    await page.mouse.move(box.x + 20 + i * 20, box.y + box.height / 2 + (i % 2 === 0 ? -25 : 25), { steps: 3 });
  }
  await page.mouse.up();
  await page.getByRole('button', { name: 'Declare and continue' }).click();

  // Declared: the exemption covers the prescription charge only; the retail part is still owed, no PIN.
  await expect(page.getByText('Your exemption has been declared. Thank you.')).toBeVisible();
  await expect(
    page.getByText('It covers the prescription charge only: there is still £2.50 to pay for other items.'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pay £2.50' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Declare an exemption' })).toHaveCount(0);
  await expect(page.getByTestId('pin')).toHaveCount(0);
  await expect(page.getByText('Ready once paid')).toBeVisible();
  await accessible(page, 'an exemption declared with the retail charge still to pay');
  const declared = await asAdmin<{ order: { paymentStatus: string; exemptionCode: string } }>('orders/get', {
    id: made.orderId,
  });
  expect([declared.order.paymentStatus, declared.order.exemptionCode]).toEqual(['unpaid', 'F']);

  // Judopay's hosted page asks for the retail part only.
  await page.getByRole('button', { name: 'Pay by card' }).click();
  await expect(page).toHaveTitle('Judopay (local)');
  await expect(page.getByRole('heading', { name: 'Pay £2.50' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();

  await expect(page.getByText('Payment received. Thank you.')).toBeVisible();
  const pin = page.getByTestId('pin');
  await expect(pin).toHaveText(/^\d{4} \d{4}$/);
  await expect(
    page.getByText(
      'Paid £2.50 by card. Exemption declared: F (prescription prepayment certificate) for the prescription charge',
    ),
  ).toBeVisible();
  await accessible(page, 'the retail charge paid after an exemption, with the PIN');
  const { order } = await asAdmin<{ order: { paymentStatus: string; amountPaid: number; exemptionCode: string } }>(
    'orders/get',
    { id: made.orderId },
  );
  expect([order.paymentStatus, order.amountPaid, order.exemptionCode]).toEqual(['paid', 250, 'F']);

  // No email on record: the receipt goes by text, the second text to this mobile.
  await page.getByRole('button', { name: 'Send me a receipt' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Receipt sent' })).toHaveText(
    `Receipt sent by text to 07••• •••${made.digits.slice(-3)}.`,
  );
  const receipt = await smsTo(made.destination, 20_000, 2);
  expect(receipt.content).toContain('£2.50 paid by card');
  expect(receipt.content).toContain('prescription charge not charged: exemption F');

  // The locker opens with the PIN the page shows.
  const started = locker;
  if (!started) throw new Error('no locker');
  await started.control({ do: 'enterPin', pin: ((await pin.textContent()) ?? '').replace(/\s/g, '') });
  await started.control({ do: 'collectBag' });
  await expect
    .poll(async () => (await asAdmin<{ order: { status: string } }>('orders/get', { id: made.orderId })).order.status)
    .toBe('collected');
});

test('without card payments the page says to declare or contact the pharmacy on its number; a retail-only order offers no declaration', async ({
  page,
}) => {
  const noCards = await estate({ charged: true, loaded: false, noCards: true });
  await page.goto(`/p/${noCards.orderId}`);
  await confirmDateOfBirth(page);
  await expect(page.getByRole('heading', { name: 'Pay £9.90' })).toBeVisible();
  await expect(
    page.getByText(
      'This pharmacy does not take card payments here. Declare an exemption if you do not have to pay, or contact the pharmacy on 0113 496 0000 to pay.',
    ),
  ).toBeVisible();
  // The number the pharmacy gave in its payment settings, to call from the phone.
  await expect(page.getByRole('link', { name: '0113 496 0000' })).toHaveAttribute('href', 'tel:01134960000');
  await expect(page.getByRole('button', { name: 'Pay by card' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Declare an exemption' })).toBeVisible();
  await accessible(page, 'an order without card payments');

  const retailOnly = await estate({ charged: true, loaded: false, noPrescription: true, retail: '4.00' });
  await page.goto(`/p/${retailOnly.orderId}`);
  await confirmDateOfBirth(page);
  await expect(page.getByRole('heading', { name: 'Pay £4.00' })).toBeVisible();
  await expect(page.getByText('There is £4.00 to pay for this order.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay by card' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Declare an exemption' })).toHaveCount(0);
  await expect(page.getByText(/declare an exemption/i)).toHaveCount(0);
  await accessible(page, 'a retail-only order');
});

test('a wrong date of birth is refused beside the field, and the PIN is never in the page before the check', async ({
  page,
}) => {
  // The page's clock, to let its session time out at the end.
  await page.clock.install();
  const made = await estate({ charged: false, loaded: true });
  const text = await smsTo(made.destination);
  const pin = /PIN: (\d{4} \d{4})/.exec(text.content)?.[1];
  if (!pin) throw new Error(`no PIN in the text: ${text.content}`);
  // Everything the browser receives before the check, to look for the PIN and the patient's name in.
  const received: string[] = [];
  const collect = async (response: { url(): string; text(): Promise<string> }) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/api/') || pathname.startsWith('/p/'))
      received.push(await response.text().catch(() => ''));
  };
  page.on('response', collect);

  await page.goto(`/p/${made.orderId}`);
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await confirmDateOfBirth(page, { day: '28', month: '3', year: '1985', iso: '' });
  const field = page.locator('.form-group--error');
  await expect(field).toContainText('We could not confirm your details. You have 4 tries left');
  await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toBeFocused();
  await accessible(page, 'a refused date of birth');

  // A date that is not one, and one in the future, are refused before any try is counted.
  await confirmDateOfBirth(page, { day: '31', month: '2', year: '1985', iso: '' });
  await expect(field).toContainText('Expected a valid date');
  await confirmDateOfBirth(page, { day: '1', month: '1', year: '2999', iso: '' });
  await expect(field).toContainText('Date must be in the past');

  const shown = (await page.locator('body').textContent()) ?? '';
  for (const secret of [pin, pin.replace(' ', ''), 'Quinlan', 'Hello Pat', 'B4']) expect(shown).not.toContain(secret);
  expect(received.length).toBeGreaterThan(1);
  const answers = received.join('\n');
  for (const secret of [pin.replace(' ', ''), pin, 'Quinlan', '"B4"']) expect(answers).not.toContain(secret);
  page.off('response', collect);

  await confirmDateOfBirth(page);
  await expect(page.getByTestId('pin')).toHaveText(pin);
  await expect(page.getByText('Ready to collect')).toBeVisible();

  // Half an hour later, untouched: the session has timed out, the PIN goes and the check is back.
  await page.clock.fastForward('31:00');
  await expect(page.getByText('Your session has timed out. Please confirm who you are again.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await expect(page.getByTestId('pin')).toHaveCount(0);
  await accessible(page, 'a timed-out session');
});

test('five wrong dates of birth lock the link, and the page says for how long', async ({ page }) => {
  const made = await estate({ charged: false, loaded: false });
  await page.goto(`/p/${made.orderId}`);
  const field = page.locator('.form-group--error');
  for (let left = 4; left >= 1; left--) {
    await confirmDateOfBirth(page, { day: '1', month: '1', year: String(1990 + left), iso: '' });
    await expect(field).toContainText(`You have ${left} ${left === 1 ? 'try' : 'tries'} left`);
  }
  await confirmDateOfBirth(page, { day: '1', month: '1', year: '1990', iso: '' });
  await expect(field).toContainText('For your security this link is now locked for 15 minutes.');
  // Locked: even the right date is refused, unchecked, until the time is up.
  await confirmDateOfBirth(page);
  await expect(field).toContainText('Too many wrong tries: for your security this link is locked.');
  await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toBeFocused();
  await accessible(page, 'a locked link');
});

test('a patient asks for a code by text instead, enters it, sees their orders, adds a mobile and signs out', async ({
  page,
}) => {
  const made = await estate({ charged: false, loaded: false });
  await page.goto(`/p/${made.orderId}`);
  await page.getByRole('button', { name: 'Text me a code instead' }).click();
  await expect(page.getByRole('heading', { name: 'Enter the code we texted you' })).toBeVisible();
  await expect(page.getByText(`to your mobile ending ${made.digits.slice(-3)}`)).toBeVisible();
  await accessible(page, 'the code step');

  const text = await smsTo(made.destination);
  const code = /\b(\d{6})\b/.exec(text.content)?.[1];
  if (!code) throw new Error(`no code in the text: ${text.content}`);
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel('Code').fill(wrong);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('.form-group--error')).toContainText('That code is wrong or has expired');

  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: /^Your order from / })).toBeVisible();
  await expect(page.getByText('Being prepared')).toBeVisible();

  await page.getByRole('link', { name: 'See all your orders' }).click();
  await expect(page).toHaveURL(/\/p$/);
  await expect(page.getByRole('heading', { name: 'Your orders' })).toBeVisible();
  await expect(page.getByRole('link', { name: /, order / })).toHaveCount(1);
  await accessible(page, 'the orders list');

  // A carer's phone gets the codes too once its own code is entered; then it is removed again.
  const mobiles = page.getByRole('list', { name: 'Your mobiles' });
  await expect(mobiles).toContainText(`07700 9${made.digits}`);
  await expect(mobiles).toContainText('The number your pharmacy has for you');
  const carer = String((Number(made.digits) + 50_000) % 100_000).padStart(5, '0');
  await page.getByLabel('Add a UK mobile number').fill(`07700 9${carer}`);
  await page.getByRole('button', { name: 'Text a code to this number' }).click();
  await expect(page.getByLabel(`Code texted to 07700 9${carer}`)).toBeVisible();
  const carerText = await smsTo(`4477009${carer}`);
  const carerCode = /\b(\d{6})\b/.exec(carerText.content)?.[1];
  if (!carerCode) throw new Error(`no code in the text: ${carerText.content}`);
  await page.getByLabel(`Code texted to 07700 9${carer}`).fill(carerCode);
  await page.getByRole('button', { name: 'Add this mobile' }).click();
  await expect(page.getByText(`07700 9${carer} added`)).toBeVisible();
  await expect(mobiles.getByRole('listitem')).toHaveCount(2);
  await accessible(page, 'the orders list with an added mobile');
  await page.getByRole('button', { name: `Remove 07700 9${carer}` }).click();
  await expect(page.getByText(`07700 9${carer} removed`)).toBeVisible();
  await expect(mobiles.getByRole('listitem')).toHaveCount(1);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'You have signed out' })).toBeVisible();
  // The session is gone: the order's page asks again.
  await page.goto(`/p/${made.orderId}`);
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
});

test.describe('on a desktop screen', () => {
  test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false });

  test('the identity check and a charged order read well on a desktop screen, with nothing wider than the window', async ({
    page,
  }) => {
    const made = await estate({ charged: true, loaded: false });
    const fitsTheWindow = async () => {
      const { scroll, client } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(scroll).toBeLessThanOrEqual(client);
    };
    await page.goto(`/p/${made.orderId}`);
    await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
    await fitsTheWindow();
    await accessible(page, 'the identity check on a desktop screen');
    await confirmDateOfBirth(page);
    await expect(page.getByRole('heading', { name: 'Pay £9.90' })).toBeVisible();
    const pay = page.getByRole('button', { name: 'Pay by card' });
    await expect(pay).toBeVisible();
    await expect(page.getByRole('button', { name: 'Declare an exemption' })).toBeVisible();
    // A column a person can read, not a line stretched across a wide screen.
    const width = (await pay.boundingBox())?.width ?? 0;
    expect(width).toBeGreaterThan(100);
    expect(width).toBeLessThan(800);
    await fitsTheWindow();
    await accessible(page, 'a charged order on a desktop screen');
  });
});
