import { expect } from 'bun:test';
import type { ImportedPatient } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';
import type { DisplayIdField } from '../areas/patients/rules.ts';
import type { CallOptions, TestApi } from './api.ts';

/** A business row inserted directly (the businesses API is another area), with its displayIdField. */
export async function insertBusiness(
  db: Kysely<Database>,
  options: { archived?: boolean; displayIdField?: DisplayIdField } = {},
): Promise<string> {
  const id = Bun.randomUUIDv7();
  await db
    .insertInto('businesses')
    .values({
      id,
      name: `Pharmacy ${id.slice(-6)}`,
      created: 1,
      updated: 1,
      ...(options.archived ? { archived_at: 2 } : {}),
    })
    .execute();
  if (options.displayIdField) {
    await db
      .insertInto('business_feature_settings')
      .values({ business_id: id, settings: JSON.stringify({ displayIdField: options.displayIdField }), updated: 1 })
      .execute();
  }
  return id;
}

/** The i-th valid NHS number of the 999 test range (never issued to a real patient). */
export function testNhsNumber(i: number): string {
  for (let n = i; ; n++) {
    const nine = `999${String(n % 1_000_000).padStart(6, '0')}`;
    let sum = 0;
    for (let k = 0; k < 9; k++) sum += Number(nine[k]) * (10 - k);
    const check = 11 - (sum % 11);
    if (check !== 10) return nine + (check === 11 ? '0' : String(check));
  }
}

/** A made-up patient with a drama-range mobile. */
export function testPatient(i: number, overrides: Partial<ImportedPatient> = {}): ImportedPatient {
  return {
    displayId: testNhsNumber(i * 3),
    name: { given: `Given${i}`, family: `Family${i}` },
    mobileNumber: `+447700900${String(i % 1000).padStart(3, '0')}`,
    email: `patient${i}@example.com`,
    dateOfBirth: '1980-01-02',
    ...overrides,
  };
}

export const nhsSettings: DisplayIdField = { name: 'NHS number', required: true, validateNhsNumber: true };

/** Turns WhatsApp on for a business, as support does in its controlled settings. */
export async function enableWhatsApp(t: TestApi, businessId: string, as: CallOptions): Promise<void> {
  const settings = { enableWhatsApp: true };
  const res = await t.call('businessSettings', 'updateBusinessControlledSettings', { businessId, settings }, as);
  expect(res.status).toBe(200);
}

/** Staff offer a patient WhatsApp (`users/addWhatsAppOptIn`): the opt-in code's text as queued to them. */
export async function whatsAppOptInCodeText(t: TestApi, patientId: string, as: CallOptions): Promise<string> {
  expect((await t.call('users', 'addWhatsAppOptIn', { patientId }, as)).status).toBe(200);
  const { body } = await t.db
    .selectFrom('message_outbox')
    .select('body')
    .where('patient_id', '=', patientId)
    .where('template_key', '=', 'whatsAppOptInCode')
    .executeTakeFirstOrThrow();
  return body;
}
