import { expect } from 'bun:test';
import type { TestApi } from './api.ts';
import { asSupport } from './hub.ts';
import { insertBusiness, testPatient } from './patients.ts';

/* Fixtures of the integration API's tests: a business with a client and a secret, and calls with a token. */

export const HOUR = 3_600_000;
export const BASE = '/integration/v1';

// biome-ignore lint/suspicious/noExplicitAny: tests read answers (and send bad input) without a type per route.
export type Reply = { status: number; body: any; headers: Headers };

/** A business with a patient, a locker and an integration client with a secret. */
export async function estate(t: TestApi, options: { suppress?: boolean; patient?: number } = {}) {
  const businessId = await insertBusiness(t.db);
  const ok = async (p: Promise<Omit<Reply, 'headers'>>) => {
    const res = await p;
    if (res.status !== 200) throw new Error(`fixture: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const patient = await ok(
    t.call('patients', 'create', { businessId, patient: testPatient(options.patient ?? 1) }, asSupport),
  );
  const machine = await ok(
    t.call('machines', 'createMachine', { businessId, name: 'Front', numberOfSlots: 12 }, asSupport),
  );
  const client = await ok(
    t.call(
      'integration',
      'createOrUpdateIntegrationClient',
      {
        businessId,
        name: 'Example PMR',
        contactEmail: 'support@pmr.example',
        suppressPatientMessages: options.suppress ?? false,
        webhookUrl: null,
        rateLimit: 1200,
      },
      asSupport,
    ),
  );
  const clientId = client.client.id as string;
  const { secret } = await ok(t.call('integration', 'generateClientSecret', { id: clientId }, asSupport));
  return {
    businessId,
    clientId,
    secret: secret as string,
    patientId: patient.patient.id as string,
    machineId: machine.machine.id as string,
  };
}

export async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

/** `POST /oauth/token`, form-encoded. */
export async function postToken(t: TestApi, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return reply(
    await t.raw(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

export async function tokenOf(t: TestApi, e: { clientId: string; secret: string }): Promise<string> {
  const res = await postToken(t, { grant_type: 'client_credentials', client_id: e.clientId, client_secret: e.secret });
  expect(res.status).toBe(200);
  return res.body.access_token;
}

/** Calls the API with a bearer token. */
export const caller =
  (t: TestApi, token: string | null) =>
  async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
    reply(
      await t.raw(`${BASE}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );

export const count = async (t: TestApi, table: 'orders' | 'patients' | 'message_outbox') =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
