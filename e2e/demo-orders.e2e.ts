import { asAdmin, demoBusiness, expect, test, uniqueName } from './harness/fixtures.ts';

/*
 * The demo the server seeds at start (here the harness's, with its own SECRETS_KEY) holds orders that
 * behave like orders made through the api: staff can reveal their PIN, and a new order carries on
 * their numbering. (Opening a demo order's slot with that PIN: packages/api/src/seed-demo.test.ts.)
 */

type Order = { id: string; reference: string; status: string; patientId: string; machineSequence: number | null };

async function demoLoadedOrders(): Promise<{ businessId: string; orders: Order[] }> {
  // Looked up by name: other specs' businesses may fill the first page of the list.
  const names = ['Harborne High Street Pharmacy', 'Chorlton Green Chemist'];
  for (const business of await Promise.all(names.map(demoBusiness))) {
    const { orders } = await asAdmin<{ orders: Order[] }>('orders/listOrdersByBusiness', { businessId: business.id });
    if (orders.some((o) => o.status === 'loaded')) return { businessId: business.id, orders };
  }
  throw new Error('the demo seed has no loaded order');
}

test("staff reveal a demo order's 8-digit PIN, and a new order takes the next reference", async () => {
  const { businessId, orders } = await demoLoadedOrders();
  const loaded = orders.find((o) => o.status === 'loaded');
  if (!loaded) throw new Error('no loaded order');
  const revealed = await asAdmin<{ pin: string; order: Order }>('orders/setRevealPinReason', {
    id: loaded.id,
    reason: 'Patient deleted the SMS',
  });
  expect(revealed.pin).toMatch(/^\d{8}$/);
  expect(revealed.order.status).toBe('loaded');

  const { order } = await asAdmin<{ order: Order }>('orders/create', {
    businessId,
    patientId: loaded.patientId,
    barcode: uniqueName('DEMO').replace(' ', '-'),
  });
  expect(orders.map((o) => o.reference)).not.toContain(order.reference);
  expect(Number(order.reference)).toBeGreaterThan(Math.max(...orders.map((o) => Number(o.reference))));
});
