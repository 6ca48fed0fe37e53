import {
  AppError,
  type IntegrationAvailability,
  type IntegrationCancelInput,
  type IntegrationEvent,
  type IntegrationEventsQuery,
  type IntegrationMachine,
  type IntegrationOrder,
  type IntegrationOrderInput,
  type IntegrationOrderQuery,
  type IntegrationPatient,
  type IntegrationPatientInput,
  type IntegrationPatientQuery,
  integrationRateLimit,
  nhsNumberDigits,
  toIntegrationMachine,
  toIntegrationOrder,
  toIntegrationPatient,
} from '@medlocker/core';
import { findMachine, toMachine } from '../areas/machines/index.ts';
import { auditOrderReads, cancel, createOrder, findOrder, toOrder } from '../areas/orders/index.ts';
import * as patients from '../areas/patients/index.ts';
import {
  displayIdFieldOf,
  findBusinessForPatients,
  findCurrentPatientByDisplayId,
  findPatient,
} from '../areas/patients/index.ts';
import { auditListPage } from '../audit/audit.ts';
import type { Actor, Origin } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { eventBody } from '../delivery/webhooks/events.ts';
import { decodeIdCursor, encodeCursor } from '../lists/paging.ts';
import { type Bucket, releaseToken, reserveToken } from '../rate-limits/repository.ts';
import { sameHash } from '../secrets/one-time-codes.ts';
import { hashToken, newToken } from '../sessions/tokens.ts';
import {
  countRequest,
  findClientSecret,
  findLiveToken,
  insertToken,
  listBusinessMachines,
  listFeedEvents,
  listOrdersFiltered,
  occupiedSlots,
  type Window,
} from './repository.ts';

/*
 * The integration API's services: a pharmacy's record system, signed in as its business's
 * integration client, acts through the console's own services (orders.createOrder, orders.cancel,
 * patients.create/update) with an `integration` actor; everything it reads is of that one business.
 */

export type IntegrationActor = Extract<Actor, { kind: 'integration' }>;

/** Bearer tokens live an hour: a leaked one is useless soon, and getting another is one request. */
export const TOKEN_TTL_SECONDS = 3600;

/** Token requests per address: 20, refilled over 5 minutes; a request with the right secret gives its back. */
export const TOKEN_GUESSES: Bucket = { capacity: 20, perMs: 5 * 60_000 };

/** The request window of SPEC §9's integration rate limit. */
export const RATE_WINDOW_MS = integrationRateLimit.periodSeconds * 1000;

const invalidClient = () => new AppError('UNAUTHENTICATED', 'The client id or secret is wrong');

/**
 * OAuth2 client credentials (RFC 6749 §4.4): a client id and the secret from
 * integration/generateClientSecret give a bearer token of the client's business. Guesses are counted
 * per address before the secret is checked.
 */
export async function issueToken(
  deps: AppDeps,
  origin: Origin,
  credentials: { clientId: string; clientSecret: string },
): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }> {
  const now = deps.now();
  const bucketKey = `integration.token:${origin.ip ?? 'unknown'}`;
  const wait = await reserveToken(deps.db, bucketKey, TOKEN_GUESSES, now);
  if (wait !== null) {
    throw new AppError('RATE_LIMITED', 'Too many token requests from this address: try again later', undefined, wait);
  }
  const client = await findClientSecret(deps.db, credentials.clientId);
  if (!client?.secretHash || !sameHash(hashToken(credentials.clientSecret), client.secretHash)) throw invalidClient();
  await releaseToken(deps.db, bucketKey, TOKEN_GUESSES);
  const token = `mlt_${newToken()}`;
  const stored = await insertToken(deps.db, {
    hash: hashToken(token),
    clientId: client.id,
    secretHash: client.secretHash,
    expiresAt: now + TOKEN_TTL_SECONDS * 1000,
    now,
  });
  // A new secret was generated meanwhile: this one no longer gets tokens.
  if (!stored) throw invalidClient();
  return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS };
}

/** The actor of a bearer token: 401 when there is none, or it is unknown, expired or its client deleted. */
export async function actorOfToken(deps: AppDeps, token: string | null, origin: Origin): Promise<IntegrationActor> {
  if (!token) throw new AppError('UNAUTHENTICATED', 'Send a bearer token from POST /integration/v1/oauth/token');
  const found = await findLiveToken(deps.db, hashToken(token), deps.now());
  if (!found) throw new AppError('UNAUTHENTICATED', 'The bearer token is unknown or has expired');
  return { kind: 'integration', clientId: found.clientId, businessId: found.businessId, origin: { ...origin } };
}

/**
 * Counts the request in the client's hourly window before any work; over the client's rate limit it is
 * a 429 whose Retry-After is the seconds to the window's end. Answers the window for RateLimit headers.
 */
export async function countClientRequest(deps: AppDeps, actor: IntegrationActor): Promise<Window> {
  const now = deps.now();
  const result = await countRequest(deps.db, actor.clientId, now, RATE_WINDOW_MS);
  if (!result) throw new AppError('UNAUTHENTICATED', 'The bearer token is unknown or has expired');
  if (!result.counted) {
    const retryAfter = Math.max(1, Math.ceil((result.window.periodStart + RATE_WINDOW_MS - now) / 1000));
    throw new AppError(
      'RATE_LIMITED',
      `This client may make ${result.window.rateLimit} requests an hour: try again in ${retryAfter} s`,
      undefined,
      retryAfter,
    );
  }
  return result.window;
}

// ── orders ────────────────────────────────────────────────────────────────────────────────────

const orderNotFound = (id: string) => new AppError('NOT_FOUND', `No order with id ${id}`);

/** An order of the actor's business; another business's is as unknown as one that does not exist. */
async function ownOrder(deps: AppDeps, actor: IntegrationActor, id: string) {
  const row = await findOrder(deps.db, id);
  if (!row || row.businessId !== actor.businessId) throw orderNotFound(id);
  return row;
}

export async function createIntegrationOrder(
  deps: AppDeps,
  actor: IntegrationActor,
  input: typeof IntegrationOrderInput.infer,
): Promise<{ order: IntegrationOrder }> {
  const row = await createOrder(deps, actor, { ...input, businessId: actor.businessId }, 'integration-api');
  return { order: toIntegrationOrder(toOrder(row)) };
}

export async function getIntegrationOrder(
  deps: AppDeps,
  actor: IntegrationActor,
  input: { id: string },
): Promise<{ order: IntegrationOrder }> {
  const row = await ownOrder(deps, actor, input.id);
  await auditOrderReads(deps, actor, [row], 'integration.getOrder');
  return { order: toIntegrationOrder(toOrder(row)) };
}

export async function cancelIntegrationOrder(
  deps: AppDeps,
  actor: IntegrationActor,
  input: { id: string } & typeof IntegrationCancelInput.infer,
): Promise<{ order: IntegrationOrder }> {
  await ownOrder(deps, actor, input.id);
  const { order } = await cancel(deps, actor, { id: input.id, reason: input.reason });
  return { order: toIntegrationOrder(order) };
}

const DEFAULT_LIMIT = 25;

export async function listIntegrationOrders(
  deps: AppDeps,
  actor: IntegrationActor,
  input: typeof IntegrationOrderQuery.infer,
): Promise<{ orders: IntegrationOrder[]; next: string | null }> {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const rows = await listOrdersFiltered(deps.db, {
    businessId: actor.businessId,
    status: input.status,
    patientId: input.patientId,
    barcode: input.barcode,
    createdFrom: input.createdFrom?.getTime(),
    createdTo: input.createdTo?.getTime(),
    before: cursorOf(input.cursor),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  await auditListPage(deps.db, deps, actor, {
    action: 'order.list',
    entityType: 'order',
    businessId: actor.businessId,
    patientId: input.patientId ?? null,
    details: { via: 'integration.listOrders' },
    ids: page.map((row) => row.id),
  });
  const last = page[page.length - 1];
  return {
    orders: page.map((row) => toIntegrationOrder(toOrder(row))),
    next: rows.length > limit && last ? encodeCursor([last.id]) : null,
  };
}

/** A page cursor as given back; a forged one is a 400 naming `cursor`. */
function cursorOf(cursor: string | undefined): string | undefined {
  try {
    return decodeIdCursor(cursor);
  } catch {
    throw new AppError('VALIDATION', 'Invalid cursor', [
      { path: 'cursor', id: 'INVALID_FORMAT', message: 'Value is not correctly formatted' },
    ]);
  }
}

// ── patients ──────────────────────────────────────────────────────────────────────────────────

/**
 * Adds or updates the business's patient with this `displayId` (the business's own id for them: its
 * record system's id or the NHS number): created (201) when there is no current one, else replaced
 * (200), through the console's patients.create and patients.update with their checks.
 */
export async function upsertIntegrationPatient(
  deps: AppDeps,
  actor: IntegrationActor,
  input: typeof IntegrationPatientInput.infer,
): Promise<{ created: boolean; patient: IntegrationPatient }> {
  try {
    return await upsertPatient(deps, actor, input);
  } catch (error) {
    // The console's forms name fields under `patient.`; here the body is the patient.
    if (error instanceof AppError && error.details) {
      const details = error.details.map((d) => ({ ...d, path: d.path.replace(/^patient\./, '') }));
      throw new AppError(error.code, error.message, details, error.retryAfter);
    }
    throw error;
  }
}

async function upsertPatient(
  deps: AppDeps,
  actor: IntegrationActor,
  input: typeof IntegrationPatientInput.infer,
): Promise<{ created: boolean; patient: IntegrationPatient }> {
  const { displayIdField } = await patients.writableBusiness(deps.db, actor.businessId);
  const values = patients.checkedPatient(deps, input, displayIdField);
  const existing = values.displayId
    ? await findCurrentPatientByDisplayId(deps.db, actor.businessId, values.displayId)
    : undefined;
  if (existing) {
    const { patient } = await patients.update(deps, actor, { id: existing.id, patient: input });
    return { created: false, patient: toIntegrationPatient(patient) };
  }
  const { patient } = await patients.create(deps, actor, { businessId: actor.businessId, patient: input });
  return { created: true, patient: toIntegrationPatient(patient) };
}

export async function getIntegrationPatient(
  deps: AppDeps,
  actor: IntegrationActor,
  input: { id: string },
): Promise<{ patient: IntegrationPatient }> {
  const row = await findPatient(deps.db, input.id);
  if (!row || row.businessId !== actor.businessId) throw new AppError('NOT_FOUND', `Patient ${input.id} not found`);
  const { patient } = await patients.get(deps, actor, { id: input.id });
  return { patient: toIntegrationPatient(patient) };
}

export async function findIntegrationPatient(
  deps: AppDeps,
  actor: IntegrationActor,
  input: typeof IntegrationPatientQuery.infer,
): Promise<{ patient: IntegrationPatient }> {
  // Read as the upsert stores it: an NHS number written with spaces or dashes is its 10 digits.
  const displayIdField = displayIdFieldOf((await findBusinessForPatients(deps.db, actor.businessId))?.settings);
  const written = input.displayId.trim();
  const displayId = (displayIdField.validateNhsNumber && nhsNumberDigits(written)) || written;
  const found = await findCurrentPatientByDisplayId(deps.db, actor.businessId, displayId);
  if (!found) throw new AppError('NOT_FOUND', 'No current patient with this displayId');
  return getIntegrationPatient(deps, actor, { id: found.id });
}

// ── machines ──────────────────────────────────────────────────────────────────────────────────

export async function listIntegrationMachines(
  deps: AppDeps,
  actor: IntegrationActor,
): Promise<{ machines: IntegrationMachine[] }> {
  const rows = await listBusinessMachines(deps.db, actor.businessId);
  return { machines: rows.map((row) => toIntegrationMachine(toMachine(row))) };
}

export async function machineAvailability(
  deps: AppDeps,
  actor: IntegrationActor,
  input: { id: string },
): Promise<{ availability: IntegrationAvailability }> {
  const machine = (await findMachine(deps.db, input.id))?.machine;
  if (!machine || machine.businessId !== actor.businessId)
    throw new AppError('NOT_FOUND', `No machine with id ${input.id}`);
  const occupied = Math.min(machine.numberOfSlots, await occupiedSlots(deps.db, machine.id));
  const free = machine.numberOfSlots - occupied;
  const reasons: IntegrationAvailability['reasons'] = [];
  if (machine.archived !== null) reasons.push('archived');
  if (machine.outOfOrderStatus !== null) reasons.push('outOfOrder');
  if (free === 0) reasons.push('full');
  return {
    availability: {
      machineId: machine.id,
      numberOfSlots: machine.numberOfSlots,
      occupiedSlots: occupied,
      freeSlots: free,
      canTakeOrder: reasons.length === 0,
      reasons,
    },
  };
}

// ── events ────────────────────────────────────────────────────────────────────────────────────

/** The events feed: the client's events after the `after` sequence, oldest first; `next` is the cursor to poll. */
export async function listIntegrationEvents(
  deps: AppDeps,
  actor: IntegrationActor,
  input: typeof IntegrationEventsQuery.infer,
): Promise<{ events: IntegrationEvent[]; next: number }> {
  const after = input.after ?? 0;
  const rows = await listFeedEvents(deps.db, actor.clientId, after, input.limit ?? 100);
  const events = rows.map(eventBody);
  return { events, next: events[events.length - 1]?.sequence ?? after };
}
