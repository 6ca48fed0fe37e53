import type { Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { expectAccessible as accessible } from './harness/axe.ts';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createUser,
  logInAsAdmin,
  signInAsNew,
  test,
  uniqueName,
  webhookReceiver,
} from './harness/fixtures.ts';

/*
 * The webhook delivery console: an order's webhook fails at the business's endpoint (the
 * harness's local receiver answers 503), staff find the failed delivery and its attempts, the receiver
 * comes back, and Replay delivers it (the attempts show the 2xx; the receiver verifies the signature with
 * the `standardwebhooks` library). Walked as support and as a pharmacy admin; axe-core checks the pages.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 150_000 });

type Endpoint = { businessId: string; name: string; secret: string; orderId: string };

/**
 * A business whose integration posts to its own endpoint of the receiver, which answers 503; an order
 * made there; its delivery tried until it waits minutes for the next try, then given up on (the end of
 * the retry schedule, days in real life).
 */
async function failedOrderDelivery(): Promise<Endpoint> {
  const business = await createBusiness();
  const name = uniqueName('pmr').replace(' ', '-');
  await webhookReceiver.answer(name, 503);
  const { webhookSecret } = await asAdmin<{ webhookSecret: string }>('integration/createOrUpdateIntegrationClient', {
    businessId: business.id,
    name: 'Example PMR',
    contactEmail: 'support@pmr.example',
    suppressPatientMessages: false,
    webhookUrl: await webhookReceiver.url(name),
    rateLimit: 1200,
  });
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Wendy', family: 'Webb' },
      mobileNumber: '07700 900123',
    },
  });
  const { order } = await asAdmin<{ order: { id: string } }>('orders/create', {
    businessId: business.id,
    patientId: patient.id,
    barcode: uniqueName('RX').replace(' ', '-').toUpperCase(),
  });
  await expect
    .poll(async () => (await webhookReceiver.received(name)).filter((r) => r.answered === 503).length)
    .toBeGreaterThan(0);
  await expect
    .poll(() => webhookReceiver.giveUp(business.id), { timeout: 60_000, intervals: [1000] })
    .toBeGreaterThan(0);
  return { businessId: business.id, name, secret: webhookSecret, orderId: order.id };
}

/** From the integration settings: the failed order.created delivery, its attempts, and a Replay that succeeds. */
async function replayFailedDelivery(page: Page, endpoint: Endpoint) {
  await page.goto(`/businesses/${endpoint.businessId}/settings/integration`);
  await page.getByRole('link', { name: 'Webhook deliveries' }).click();
  await expect(page).toHaveURL(/\/settings\/integration\/webhooks/);
  await expect(page.getByRole('heading', { name: 'Webhook deliveries' })).toBeVisible();
  await expect(page.getByText(/Failing since/)).toBeVisible();

  await page.getByRole('button', { name: /Outcome$/ }).click();
  await page.getByRole('option', { name: 'Failed', exact: true }).click();
  await expect(page).toHaveURL(/outcome=failed/);
  await page.getByRole('button', { name: /Event$/ }).click();
  await page.getByRole('option', { name: 'order.created', exact: true }).click();
  const rows = page.getByRole('row').filter({ hasText: 'order.created' });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Failed');
  await expect(rows.first()).toContainText('HTTP 503');
  await accessible(page, 'the deliveries list');

  await rows
    .first()
    .getByRole('link', { name: /View the order.created delivery/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Webhook delivery' })).toBeVisible();
  const attempts = page.getByRole('grid', { name: 'Attempts' });
  await expect(attempts.getByRole('row').filter({ hasText: 'HTTP 503' }).first()).toBeVisible();
  await expect(page.getByText(`"id": "${endpoint.orderId}"`)).toBeVisible();
  await accessible(page, 'a failed delivery');

  // The receiver is back: Replay sends it again, and the attempt shows the 2xx.
  await webhookReceiver.answer(endpoint.name, 200);
  await page.getByRole('button', { name: 'Replay', exact: true }).click();
  await expect(page.getByText('Queued again: its attempts appear below.')).toBeVisible();
  const replayed = attempts.getByRole('row').filter({ hasText: 'Replay' });
  await expect(replayed).toContainText('HTTP 200');
  await expect(page.getByText('Delivered', { exact: true })).toBeVisible();
  await accessible(page, 'a replayed delivery');

  // What the receiver got: the same webhook-id every time, the replay signed as the library checks.
  const received = await webhookReceiver.received(endpoint.name);
  const about = received.filter((r) => JSON.parse(r.body).data?.id === endpoint.orderId);
  const ids = new Set(about.map((r) => r.headers['webhook-id']));
  expect(ids.size).toBe(1);
  const delivered = about.filter((r) => r.answered === 200);
  expect(delivered).toHaveLength(1);
  const payload = new Webhook(endpoint.secret).verify(delivered[0]?.body ?? '', delivered[0]?.headers ?? {});
  expect(payload).toMatchObject({ type: 'order.created', data: { id: endpoint.orderId } });
}

test('support finds a failed webhook delivery and its attempts, and a replay delivers it', async ({ page }) => {
  const endpoint = await failedOrderDelivery();
  await logInAsAdmin(page);
  await replayFailedDelivery(page, endpoint);

  // Rotating the secret shows the new one once.
  await page.getByRole('link', { name: 'Webhook deliveries' }).click();
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate secret' }).click();
  await expect(page.getByText('Your new webhook signing secret')).toBeVisible();
  await expect(page.locator('.secret__value')).toHaveText(/^whsec_/);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Your new webhook signing secret')).toHaveCount(0);
});

test('a pharmacy admin replays their failed delivery and sends a test event', async ({ page }) => {
  const endpoint = await failedOrderDelivery();
  const user = await createUser({
    role: { name: 'Business', resource: endpoint.businessId, accessLevels: ['Admin'] },
  });
  // Invited users name themselves first (SPEC §1).
  await signInAsNew(page, user, { first: 'Ada', last: 'Admin' });

  await replayFailedDelivery(page, endpoint);

  await page.getByRole('link', { name: 'Webhook deliveries' }).click();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText('Test event queued: it appears in the list below.')).toBeVisible();
  const test = page.getByRole('row').filter({ hasText: 'webhook.test' });
  await expect(test).toHaveCount(1);
  await expect(async () => {
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(test).toContainText('Delivered', { timeout: 2000 });
  }).toPass();
  await accessible(page, 'the deliveries list after a test event');
});
