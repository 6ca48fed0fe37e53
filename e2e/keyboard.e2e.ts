import type { Locator, Page } from '@playwright/test';
import {
  admin,
  asAdmin,
  expect as baseExpect,
  createBusiness,
  type SimulatedLocker,
  startLocker,
  stopLocker,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * The console and the patient page with the keyboard alone (Tab, Shift+Tab, Enter, Space, arrows and
 * typing; no clicks): staff sign in, create an order, reveal its PIN and cancel another; a patient
 * confirms who they are, declares an exemption (signing with their typed name) and sees the PIN. Each
 * control is reached by tabbing and shows its focus ring; focus comes back to what opened a dialog.
 * The patient page also reads at 320 px wide with text at 200%: no sideways scrolling, nothing cut off.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ mode: 'parallel', timeout: 180_000 });

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

const DATE_OF_BIRTH = { day: '27', month: '3', year: '1985', iso: '1985-03-27' };

/** The focused element shows a focus ring: an outline of at least 2 px, or a box shadow. */
async function expectFocusRing(target: Locator) {
  await expect(target).toBeFocused();
  const ring = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    return { outline: style.outlineStyle, width: Number.parseFloat(style.outlineWidth), shadow: style.boxShadow };
  });
  expect(
    (ring.outline !== 'none' && ring.width >= 2) || ring.shadow !== 'none',
    `a focus ring on the focused element (${JSON.stringify(ring)})`,
  ).toBe(true);
}

/** Presses Tab (Shift+Tab when `back`) until `target` has the focus, then checks its focus ring. */
async function tabTo(page: Page, target: Locator, options: { back?: boolean; most?: number } = {}) {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < (options.most ?? 80); presses++) {
    if (await target.evaluate((el) => el === document.activeElement)) {
      await expectFocusRing(target);
      return;
    }
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`tabbing never reached ${target}`);
}

/** A business with a patient (date of birth on record) and, when told, charges on and a machine taking payment. */
async function estate(charged: boolean) {
  const business = await createBusiness();
  const businessId = business.id;
  if (charged) {
    await asAdmin('businessSettings/updateBusinessFeatureSettings', {
      businessId,
      settings: { charges: { enabled: true } },
    });
    await asAdmin('paymentSettings/updatePaymentSettings', {
      businessId,
      contactNumber: '0113 496 0000',
      legalInfo: 'E2E Pharmacy Ltd',
      provider: null,
      judo: null,
    });
  }
  const { machine } = await asAdmin<{ machine: { id: string } }>('machines/createMachine', {
    businessId,
    name: uniqueName('Front door'),
    numberOfSlots: 40,
    paymentsEnabled: charged,
  });
  const family = uniqueName('Quinlan').replace(' ', '');
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Pat', family },
      mobileNumber: '07700 900123',
      dateOfBirth: DATE_OF_BIRTH.iso,
    },
  });
  return { businessId, machineId: machine.id, patientId: patient.id, family };
}

async function order(businessId: string, patientId: string, extra: Record<string, unknown> = {}) {
  const barcode = uniqueName('RX').replace(' ', '-').toUpperCase();
  const { order } = await asAdmin<{ order: { id: string; reference: string } }>('orders/create', {
    businessId,
    patientId,
    barcode,
    ...extra,
  });
  return { ...order, barcode };
}

const statusOf = async (id: string) =>
  (await asAdmin<{ order: { status: string } }>('orders/get', { id })).order.status;

test('staff sign in, create an order, reveal its PIN and cancel another with the keyboard alone', async ({ page }) => {
  const made = await estate(false);
  const other = await order(made.businessId, made.patientId);

  // Signing in: the email, Next, the password, Log in.
  await page.goto('/auth/login');
  await tabTo(page, page.getByLabel('Email address'));
  await page.keyboard.type(admin.email);
  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(admin.password);
  await tabTo(page, page.getByRole('button', { name: 'Log in' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Your account' })).toBeVisible();

  // A new order: the patient picked from the search's options with the arrow keys, a barcode typed.
  await page.goto(`/businesses/${made.businessId}/orders/add`);
  await expect(page.getByRole('heading', { name: 'New order' })).toBeVisible();
  const patient = page.getByRole('combobox', { name: 'Patient' });
  await tabTo(page, patient);
  await page.keyboard.type(made.family);
  await expect(page.getByRole('option', { name: new RegExp(made.family) })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(patient).toHaveValue(new RegExp(made.family));
  const barcode = uniqueName('KB').replace(' ', '-').toUpperCase();
  await tabTo(page, page.getByRole('textbox', { name: 'Barcode' }));
  await page.keyboard.type(barcode);
  await tabTo(page, page.getByRole('button', { name: 'Create order' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^Order .+ created\.$/)).toBeVisible();

  // Its PIN: Reveal PIN asks why, shows the PIN, and Close brings the focus back to Reveal PIN.
  const reveal = page.getByRole('button', { name: 'Reveal PIN' });
  await tabTo(page, reveal);
  await page.keyboard.press('Enter');
  const asked = page.getByRole('alertdialog');
  await expect(asked.getByRole('textbox', { name: 'Reason for revealing the PIN' })).toBeFocused();
  await page.keyboard.type('The patient phoned: their text never came');
  await tabTo(page, asked.getByRole('button', { name: 'Reveal PIN' }));
  await page.keyboard.press('Enter');
  const shown = page.getByRole('dialog');
  await expect(shown.locator('.pin')).toHaveText(/^\d{4} \d{4}$/);
  await expectFocusRing(shown.getByRole('button', { name: 'Close' }));
  await page.keyboard.press('Enter');
  await expect(shown).toHaveCount(0);
  await expectFocusRing(reveal);

  // Another order cancelled: Escape first leaves it as it was, focus back on Cancel order; then for real.
  await page.goto(`/businesses/${made.businessId}/orders/${other.id}`);
  const cancel = page.getByRole('button', { name: 'Cancel order' });
  await tabTo(page, cancel);
  await page.keyboard.press('Space');
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expectFocusRing(cancel);
  await page.keyboard.press('Enter');
  await expect(confirm.getByRole('textbox', { name: /Reason/ })).toBeFocused();
  await page.keyboard.type('Made twice by mistake');
  await tabTo(page, confirm.getByRole('button', { name: 'Cancel order' }));
  await page.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await expect.poll(() => statusOf(other.id)).toBe('cancelled');
});

test('a patient confirms who they are, declares an exemption and sees the PIN with the keyboard alone', async ({
  page,
}) => {
  const made = await estate(true);
  const due = await order(made.businessId, made.patientId, { machineId: made.machineId, prescriptionCharge: '9.90' });
  // A second try when the simulator is slow to start on a loaded machine.
  const started = await startLocker().catch(() => startLocker());
  locker = started;
  await asAdmin('auth/activateDeviceAuth', { machineId: made.machineId, userCode: started.userCode });
  await expect.poll(async () => (await started.view()).status).toBe('online');
  await started.control({ do: 'loadBag', barcode: due.barcode, location: 'B4' });

  await page.goto(`/p/${due.id}`);
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await expectReflows(page, 'the identity check at 320 px and 200% text');
  await tabTo(page, page.getByLabel('Day'));
  await page.keyboard.type(DATE_OF_BIRTH.day);
  await tabTo(page, page.getByLabel('Month'));
  await page.keyboard.type(DATE_OF_BIRTH.month);
  await tabTo(page, page.getByLabel('Year'));
  await page.keyboard.type(DATE_OF_BIRTH.year);
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');

  await tabTo(page, page.getByRole('button', { name: 'Declare an exemption' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Declare an exemption' })).toBeVisible();
  await expectReflows(page, 'the exemption form at 320 px and 200% text');
  // The exemptions are one group of radios: Tab into it, arrows to F.
  const exemptions = page.getByRole('radio', { name: /^[A-Z]: / });
  await tabTo(page, exemptions.first());
  const f = page.getByRole('radio', { name: 'F: Prescription prepayment certificate' });
  for (let i = 0; i < 20 && !(await f.isChecked()); i++) await page.keyboard.press('ArrowDown');
  await expect(f).toBeChecked();
  await expectFocusRing(f);
  await tabTo(page, page.getByLabel('Full name of the person declaring'));
  await page.keyboard.type('Pat Quinlan');
  const self = page.getByRole('radio', { name: /^Yes/ });
  await tabTo(page, self);
  await page.keyboard.press('Space');
  await expect(self).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Sign with the name typed above' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Clear signature' })).toBeEnabled();
  await tabTo(page, page.getByRole('button', { name: 'Declare and continue' }));
  await page.keyboard.press('Enter');

  // The news is a status message (read out), and the PIN is on the page.
  await expect(page.getByRole('status').filter({ hasText: 'Your exemption has been declared' })).toBeVisible();
  await expect(page.getByTestId('pin')).toHaveText(/^\d{4} \d{4}$/);
  const { order: declared } = await asAdmin<{
    order: { paymentStatus: string; exemptionCode: string; exemptionDetails: { signature: string } };
  }>('orders/get', { id: due.id });
  expect([declared.paymentStatus, declared.exemptionCode]).toEqual(['exemption_declared', 'F']);
  expect(declared.exemptionDetails.signature).toMatch(/^data:image\/png;base64,/);

  await expectReflows(page, 'the PIN at 320 px and 200% text');
});

/**
 * At 320 px wide with the text at 200%, the page fits its width: no sideways scrolling, and no element
 * with text overflows its box or the window (names up to five that do). The page is put back after.
 */
async function expectReflows(page: Page, state: string) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 320, height: 640 });
  await page.evaluate(() => {
    document.documentElement.style.fontSize = '200%';
  });
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const cut: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('main *, header *'))) {
      if (!el.offsetParent || !el.textContent?.trim()) continue;
      const box = el.getBoundingClientRect();
      const clips = ['hidden', 'clip'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1;
      if (box.right > width + 1 || clips) cut.push(`${el.tagName.toLowerCase()}.${el.className}: ${box.right}`);
    }
    return { scroll: document.documentElement.scrollWidth - width, cut: cut.slice(0, 5) };
  });
  expect.soft(found, state).toEqual({ scroll: 0, cut: [] });
  await page.evaluate(() => {
    document.documentElement.style.fontSize = '';
  });
  if (before) await page.setViewportSize(before);
}
