import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  asAdmin,
  createBusiness,
  createMachine,
  createUser,
  expect,
  expiredInLocker,
  logInAsAdmin,
  signInAsNew,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/**
 * Many orders at once, for support staff and a pharmacy user: the list sorted by a header (kept in the
 * address), a range of rows chosen with Shift, one cancel with one reason whose refused order is named,
 * the filtered list saved as CSV; and the pharmacy dashboard's bags to remove marked removed together.
 */

test.describe.configure({ timeout: 120_000 });

type Order = { id: string; reference: string; barcode: string };

async function estate(prefix: string) {
  const business = await createBusiness();
  const machine = await createMachine(business.id, uniqueName('Bulk Locker'));
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: { displayId: `P-${prefix}`, name: { given: 'Ann', family: 'Bulk' }, mobileNumber: '07700 900021' },
  });
  const order = async (barcode: string) =>
    (
      await asAdmin<{ order: Order }>('orders/create', {
        businessId: business.id,
        patientId: patient.id,
        machineId: machine.id,
        barcode,
      })
    ).order;
  return { business, machine, order };
}

async function signIn(page: Page, who: 'support' | 'pharmacy', businessId: string) {
  if (who === 'support') return logInAsAdmin(page);
  const user = await createUser({ role: { name: 'Business', resource: businessId, accessLevels: [] } });
  await signInAsNew(page, user);
}

for (const who of ['support', 'pharmacy'] as const) {
  test(`${who}: sorts the orders, chooses a range, cancels them with one reason and exports the list`, async ({
    page,
  }) => {
    const e = await estate(who);
    const orders = [];
    for (const n of [1, 2, 3, 4]) orders.push(await e.order(`BULK-${who.toUpperCase()}-${n}`));
    const [first, , , last] = orders as [Order, Order, Order, Order];
    // The last one is already cancelled: cancelling it again is refused, the others go through.
    await asAdmin('orders/cancel', { id: last.id, reason: 'Entered twice' });
    await signIn(page, who, e.business.id);
    await page.goto(`/businesses/${e.business.id}/orders?current=false`);

    const created = page.getByRole('columnheader', { name: 'Created' });
    await created.getByRole('button').click();
    await expect(created).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/sort=created/);
    const rows = page.getByRole('row').filter({ hasText: `BULK-${who.toUpperCase()}` });
    await expect(rows).toHaveCount(4, { timeout: 30_000 });
    await expect(rows.first()).toContainText(first.reference);

    // One box, then Shift with the last: all four are chosen.
    const box = (o: Order) => page.getByRole('checkbox', { name: `Select order ${o.reference}` });
    await box(first).focus();
    await page.keyboard.press('Space');
    await box(last).focus();
    await page.keyboard.press('Shift+Space');
    await expect(page.getByText('4 orders chosen')).toBeVisible();

    await page.getByRole('button', { name: 'Cancel orders' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByLabel('Reason for cancelling').fill('Batch entered twice');
    await dialog.getByRole('button', { name: 'Cancel orders' }).click();
    await expect(page.getByText('3 orders cancelled. Not done for 1 order:')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Orders not changed' })).toContainText(
      `${last.reference}: This order is cancelled: it cannot be cancelled`,
    );
    // The refused order stays chosen; the list shows the others cancelled.
    await expect(page.getByText('1 order chosen')).toBeVisible();
    await expect(rows.first()).toContainText('Cancelled');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await file.path()) as string, 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toContain('Reference');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain(first.reference);
  });
}

test('pharmacy: the dashboard marks all expired bags removed once they are out', async ({ page }) => {
  const e = await estate('dash');
  const a = await e.order('BULK-DASH-1');
  const b = await e.order('BULK-DASH-2');
  await expiredInLocker(a.id, 'A1');
  await expiredInLocker(b.id, 'A2');
  await signIn(page, 'pharmacy', e.business.id);
  await expect(page.getByRole('heading', { name: 'Bags to remove (2)' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Mark all removed' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Mark 2 expired orders removed?' });
  await dialog.getByRole('button', { name: 'Mark all removed' }).click();
  await expect(page.getByText('2 orders marked removed.')).toBeVisible();
  await expect(page.getByText('No bags to remove.')).toBeVisible();
  const { order } = await asAdmin<{ order: { status: string } }>('orders/get', { id: a.id });
  expect(order.status).toBe('removed');
});
