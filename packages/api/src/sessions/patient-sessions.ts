import { AppError, greetingName, patientAuthPolicy } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';
import {
  findPatientSessionByHash,
  insertPatientSession,
  revokePatientSessionByHash,
  touchPatientSession,
} from './patient-sessions-repository.ts';
import { cookieToken, hashToken, newToken } from './tokens.ts';

/*
 * Patient sessions: made only by proving identity for an order (areas/auth/patient-service.ts), carried
 * in their own cookie (httpOnly, SameSite=Lax so the patient returning from Judopay's page is still
 * signed in, Secure over https), never the staff session's. Only the token's hash is stored.
 */

export const PATIENT_COOKIE = 'medlocker_patient';

const idleMs = patientAuthPolicy.idleMinutes * 60_000;
const absoluteMs = patientAuthPolicy.absoluteHours * 60 * 60_000;
/** Idle expiry moves on at most once a minute, so reads do not each write. */
const touchAfterMs = 60_000;

export const patientSessionTimedOut = 'Your session has timed out. Please confirm who you are again';

/** The patient a session reaches, as rpc/area.ts turns it into a `patient` actor. */
export type PatientPrincipal = {
  sessionId: string;
  patientId: string;
  businessId: string;
  givenName: string;
  expires: number;
  idleExpires: number;
};

export type NewPatientSession = { token: string; maxAgeSeconds: number; expires: number; idleExpires: number };

export async function createPatientSession(
  db: Kysely<Database>,
  who: { businessId: string; patientId: string; orderId: string; method: 'dateOfBirth' | 'sms' | 'nhsLogin' },
  now: number,
  meta: { ip: string | null; userAgent: string | null },
): Promise<NewPatientSession> {
  const token = newToken();
  const expires = now + absoluteMs;
  const idleExpires = Math.min(now + idleMs, expires);
  await insertPatientSession(db, {
    id: Bun.randomUUIDv7(),
    token_hash: hashToken(token),
    business_id: who.businessId,
    patient_id: who.patientId,
    order_id: who.orderId,
    method: who.method,
    created: now,
    expires_at: expires,
    idle_expires_at: idleExpires,
    last_seen: now,
    ip: meta.ip,
    user_agent: meta.userAgent,
  });
  return { token, maxAgeSeconds: absoluteMs / 1000, expires, idleExpires };
}

/** The patient session cookie's token, if the request carries one. */
export function patientTokenOf(request: Request): string | null {
  return cookieToken(request, PATIENT_COOKIE);
}

/**
 * The patient of the request's patient cookie: null without one (or an unknown token); 401 'timed out'
 * for a session that ended (idle, absolute, ended, or its patient deleted). A call counts as activity.
 */
export async function patientPrincipalOf(
  db: Kysely<Database>,
  request: Request,
  now: number,
): Promise<PatientPrincipal | null> {
  const token = patientTokenOf(request);
  if (!token) return null;
  const row = await findPatientSessionByHash(db, hashToken(token));
  if (!row) return null;
  const expires = row.expiresAt;
  let idleExpires = row.idleExpiresAt;
  if (row.revokedAt !== null || row.patientDeletedAt !== null || now >= expires || now >= idleExpires) {
    throw new AppError('UNAUTHENTICATED', patientSessionTimedOut);
  }
  if (now - row.lastSeen >= touchAfterMs) {
    idleExpires = Math.min(now + idleMs, expires);
    await touchPatientSession(db, row.id, now, idleExpires);
  }
  return {
    sessionId: row.id,
    patientId: row.patientId,
    businessId: row.businessId,
    givenName: greetingName(row.givenName, row.fullName),
    expires,
    idleExpires,
  };
}

/** Ends the session of a token (the patient page's sign-out); nothing when there is none. */
export async function endPatientSessionByToken(db: Kysely<Database>, token: string, now: number): Promise<void> {
  await revokePatientSessionByHash(db, hashToken(token), now);
}
