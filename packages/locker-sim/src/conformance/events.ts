import { expectEqual, expectTrue } from './expect.ts';
import type { Run } from './run.ts';

/** The BagLoaded event the data checks sent, and the hub's answer: replayed later, it must get the same. */
export type Loaded = { event: Record<string, unknown>; answer: unknown };

/** A valid NHS number that no real patient has (the 999 test range), drawn at random. */
function testNhsNumber(): string {
  for (;;) {
    const nine = `999${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
    let sum = 0;
    for (let k = 0; k < 9; k++) sum += Number(nine[k]) * (10 - k);
    const check = 11 - (sum % 11);
    if (check !== 10) return nine + (check === 11 ? '0' : String(check));
  }
}

const field = (payload: unknown, name: string) => (payload as Record<string, unknown>)[name];

/** §6 each data event the locker sends gets its answer. */
export async function dataEvents(run: Run): Promise<Loaded> {
  run.section = '6 data events';
  const barcode = `CONF-${Date.now()}`;
  const loaded: Loaded = { event: run.event({ barcode, location: 'A1' }), answer: undefined };
  await run.check('TemperatureReadings answers stored', async () => {
    const now = run.clock();
    const readings = [
      { created: now - 20_000, value: 20.5 },
      { created: now - 10_000, value: 20.7 },
    ];
    const r = await run.wire.call('TemperatureReadings', run.event({ readings }));
    expectEqual(r[2], { stored: 2 }, 'result');
  });
  await run.check('readings ahead of the hub clock: TypeConstraintViolation with currentTime', async () => {
    const readings = [{ created: run.clock() + 60 * 60_000, value: 20 }];
    const r = await run.wire.call('TemperatureReadings', run.event({ readings }));
    expectEqual(r[2], 'TypeConstraintViolation', 'code');
    expectTrue(typeof field(r[4], 'currentTime') === 'number', 'details.currentTime');
  });
  await run.check('MachineEvent (EM_0003, an alarm) answers the stored id', async () => {
    const r = await run.wire.call('MachineEvent', run.event({ code: 'EM_0003', data: { batteryPercent: 96 } }));
    expectTrue(r[0] === 3 && typeof field(r[2], 'id') === 'string', `answer ${JSON.stringify(r)}`);
  });
  await run.check('BagLoaded, BagRemoved, BagCollected', async () => {
    const r = await run.wire.call('BagLoaded', loaded.event);
    expectTrue(r[0] === 3 && typeof field(r[2], 'bagId') === 'string', `BagLoaded ${JSON.stringify(r)}`);
    loaded.answer = r[2];
    const removed = await run.wire.call('BagRemoved', run.event({ barcode: 'NOT-HERE', reason: 'staff' }));
    expectEqual(removed[2], { bagId: null }, 'BagRemoved of an unknown bag');
    const collected = await run.wire.call('BagCollected', run.event({ barcode, location: 'A1' }));
    expectEqual(field(collected[2], 'bagId'), field(loaded.answer, 'bagId'), 'BagCollected');
  });
  return loaded;
}

/** §6 an order end to end: loaded into a slot, opened by its PIN (a wrong one opens nothing), collected. */
export async function collectingAnOrder(run: Run): Promise<void> {
  run.section = '6 collecting an order';
  await run.check('BagLoaded binds an order; its PIN opens its slot; BagCollected collects it', async () => {
    const { businessId } = run;
    const listed = await run.rpc('patients', 'list', { businessId, onlyCurrent: true });
    const patient = {
      displayId: testNhsNumber(),
      name: { given: 'Conformance', family: 'Patient' },
      mobileNumber: '07700 900999',
    };
    const patientId =
      listed.patients?.[0]?.id ?? (await run.rpc('patients', 'create', { businessId, patient })).patient.id;
    const barcode = `CONF-ORDER-${Date.now()}`;
    const orderId = (await run.rpc('orders', 'create', { businessId, patientId, barcode })).order.id;
    const bound = await run.wire.call('BagLoaded', run.event({ barcode, location: 'B2' }));
    expectEqual(field(bound[2], 'orderId'), orderId, 'BagLoaded orderId');
    const { pin } = await run.rpc('orders', 'setRevealPinReason', { id: orderId, reason: 'locker conformance run' });
    const verify = async (pin: string) => (await run.wire.call('VerifyPin', { pin }))[2];
    expectEqual(await verify(pin === '00000000' ? '00000001' : '00000000'), { status: 'Invalid' }, 'a wrong PIN');
    const accepted = (await verify(pin)) as Record<string, unknown>;
    expectEqual([accepted.status, accepted.location, accepted.barcode], ['Accepted', 'B2', barcode], 'the PIN');
    const taken = await run.wire.call('BagCollected', run.event({ barcode, location: 'B2' }));
    expectEqual(field(taken[2], 'orderId'), orderId, 'BagCollected orderId');
    expectEqual((await run.rpc('orders', 'get', { id: orderId })).order.status, 'collected', 'the order');
    expectEqual(await verify(pin), { status: 'Invalid' }, 'the PIN after collection');
  });
}
