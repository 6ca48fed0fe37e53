import { expect } from 'bun:test';
import type { TestApi } from './api.ts';
import { asSupport, seedBusiness } from './hub.ts';
import { testPatient } from './patients.ts';

/** A business with a patient, QR-code integration switched as asked and a signing key: what a scan needs. */
export async function qrBusiness(t: TestApi, id: string, enabled = true) {
  const known = await t.db.selectFrom('businesses').select('id').where('id', '=', id).executeTakeFirst();
  if (!known) await seedBusiness(t.db, id);
  const patient = (await t.call('patients', 'create', { businessId: id, patient: testPatient(1) }, asSupport)).body
    .patient as { id: string; displayId: string };
  const set = await t.call(
    'businessSettings',
    'updateBusinessControlledSettings',
    { businessId: id, settings: { qrCodeIntegration: { enabled } } },
    asSupport,
  );
  expect(set.status).toBe(200);
  const key = (await t.call('qrCodes', 'rotateSigningKey', { businessId: id }, asSupport)).body.key as string;
  return { businessId: id, patient, key };
}
