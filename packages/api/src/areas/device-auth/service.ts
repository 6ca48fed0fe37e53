import {
  AppError,
  DEVICE_CODE_GRANT,
  type DeviceCodeResponse,
  generateUserCode,
  messages,
  normaliseUserCode,
  REFRESH_TOKEN_GRANT,
  type TokenError,
  type TokenResponse,
} from '@medlocker/core';
import type { Actor, StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { liveOf } from '../../live/live.ts';
import { newToken } from '../../sessions/tokens.ts';
import { auditMachine, type MachineRecord, requireMachine, revokeCredentials } from '../machines/index.ts';
import { tokenSealer } from './credentials.ts';
import {
  activateDeviceCode,
  consumeDeviceCode,
  credentialPolicy,
  findDeviceAuthByCode,
  findPendingUserCode,
  findRefreshCredential,
  insertDeviceAuth,
  issueCredentials,
} from './repository.ts';

/** A refusal of the token endpoint (HTTP 400, RFC 6749 §5.2). */
export class TokenRefusal extends Error {
  constructor(
    readonly error: TokenError,
    readonly description: string,
  ) {
    super(description);
  }
}

const randomUnit = () => (crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) / 2 ** 32;

// Polls faster than the interval get 'slow_down' (RFC 8628 §3.5), and each one adds 5 seconds to the
// interval this device code must keep from then on (the locker was told to add them). The gap is
// measured when the hub handles a poll, which a busy hub (or network) can delay: a poll up to
// `pollEarlyAllowanceMs` early is forgiven, so a locker keeping to its interval is never slowed for the
// hub's own delays. Kept in memory: losing it on a restart only forgives one fast poll.
const polls = new Map<string, { last: number; intervalMs: number }>();
export const pollEarlyAllowanceMs = 2_500;
export const slowDownStepMs = 5_000;

/** `POST /machine/device/code`: a new device code and the user code the locker shows. */
export async function startDeviceAuth(
  deps: AppDeps,
  _actor: Actor,
  input: { verificationUri: string },
): Promise<DeviceCodeResponse> {
  const now = deps.now();
  const deviceCode = newToken();
  for (let attempt = 0; ; attempt++) {
    const userCode = generateUserCode(randomUnit);
    try {
      await insertDeviceAuth(deps.db, {
        id: Bun.randomUUIDv7(),
        deviceCode,
        userCode,
        expiresAt: now + credentialPolicy.deviceCodeMs,
        now,
      });
      return {
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: input.verificationUri,
        expires_in: credentialPolicy.deviceCodeMs / 1000,
        interval: credentialPolicy.pollIntervalSeconds,
      };
    } catch (error) {
      // A pending user code is unique; with 18^8 codes a clash is rare, a few retries end it.
      if (attempt >= 4) throw error;
    }
  }
}

/**
 * A test machine's tokens are kept sealed whenever they are issued (pairing, refresh), so the console
 * always shows the ones its locker holds: testMachines.get never has to issue new ones, which would
 * revoke the locker's. Real lockers' tokens are only ever stored as hashes.
 */
const sealFor = (deps: AppDeps, { machine, test }: MachineRecord) =>
  test ? tokenSealer(deps, machine.id).seal : undefined;

function tokenResponse(machineId: string, issued: Awaited<ReturnType<typeof issueCredentials>>, now: number) {
  return {
    access_token: issued.accessToken,
    token_type: 'Bearer',
    expires_in: Math.floor((issued.accessTokenExpires - now) / 1000),
    expires_at: issued.accessTokenExpires,
    refresh_token: issued.refreshToken,
    machine_id: machineId,
  } satisfies TokenResponse;
}

/** A token request's fields (RFC 6749 §4.5 and §6, RFC 8628 §3.4), as the controller read them. */
export type TokenRequest = { grantType: unknown; deviceCode: unknown; refreshToken: unknown };

/** `POST /machine/token`: exchanges a device code once staff have entered its user code, or rotates a refresh token. */
export async function exchangeToken(deps: AppDeps, _actor: Actor, request: TokenRequest): Promise<TokenResponse> {
  const { grantType, deviceCode, refreshToken } = request;
  if (grantType === DEVICE_CODE_GRANT && typeof deviceCode === 'string' && deviceCode) {
    return exchangeDeviceCode(deps, deviceCode);
  }
  if (grantType === REFRESH_TOKEN_GRANT && typeof refreshToken === 'string' && refreshToken) {
    return rotateRefreshToken(deps, refreshToken);
  }
  if (grantType !== DEVICE_CODE_GRANT && grantType !== REFRESH_TOKEN_GRANT) {
    throw new TokenRefusal('unsupported_grant_type', 'Use the device_code or refresh_token grant');
  }
  throw new TokenRefusal('invalid_request', 'device_code or refresh_token is missing');
}

/**
 * The device_code grant: refused until staff have entered the user code (authorization_pending, or
 * slow_down for a locker polling too fast), then answered once with the machine's new tokens.
 */
async function exchangeDeviceCode(deps: AppDeps, deviceCode: string): Promise<TokenResponse> {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    const code = await findDeviceAuthByCode(tx, deviceCode);
    if (!code || code.consumed) throw new TokenRefusal('invalid_grant', 'Unknown or used device code');
    if (!code.activated) {
      if (now >= code.expiresAt) throw new TokenRefusal('expired_token', 'The device code has expired');
      const previous = polls.get(code.id);
      const intervalMs = previous?.intervalMs ?? credentialPolicy.pollIntervalSeconds * 1000;
      if (previous !== undefined && now - previous.last < intervalMs - pollEarlyAllowanceMs) {
        polls.set(code.id, { last: now, intervalMs: intervalMs + slowDownStepMs });
        throw new TokenRefusal(
          'slow_down',
          `Polling too fast: poll every ${(intervalMs + slowDownStepMs) / 1000} seconds`,
        );
      }
      polls.set(code.id, { last: now, intervalMs });
      throw new TokenRefusal('authorization_pending', 'Waiting for staff to enter the user code');
    }
    polls.delete(code.id);
    if (!(await consumeDeviceCode(tx, code.id, now)))
      throw new TokenRefusal('invalid_grant', 'Unknown or used device code');
    const { businessId, machineId } = code.activated;
    const found = await requireMachine(tx, machineId).catch(() => undefined);
    if (!found || found.machine.archived !== null) throw new TokenRefusal('invalid_grant', 'The machine is archived');
    const issued = await issueCredentials(tx, { businessId, machineId }, now, sealFor(deps, found));
    return tokenResponse(machineId, issued, now);
  });
}

/**
 * The refresh_token grant: a new pair for a live refresh token, the old pair revoked (rotation: a
 * stolen refresh token works once at most), and the connection made with the old access token ended.
 */
async function rotateRefreshToken(deps: AppDeps, refreshToken: string): Promise<TokenResponse> {
  const now = deps.now();
  const refreshed = await deps.db.transaction().execute(async (tx) => {
    const credential = await findRefreshCredential(tx, refreshToken);
    if (!credential || credential.revoked) throw new TokenRefusal('invalid_grant', 'Unknown or revoked refresh token');
    if (credential.refreshTokenExpiresAt !== null && now >= credential.refreshTokenExpiresAt) {
      throw new TokenRefusal('invalid_grant', 'The refresh token has expired: pair again');
    }
    const { businessId, machineId } = credential;
    const found = await requireMachine(tx, machineId);
    if (found.machine.archived !== null) throw new TokenRefusal('invalid_grant', 'The machine is archived');
    const issued = await issueCredentials(tx, { businessId, machineId }, now, sealFor(deps, found));
    return { response: tokenResponse(machineId, issued, now), replaced: credential.id, machineId };
  });
  // The connection made with the old access token ends now (4004): the locker reconnects with the new one.
  liveOf(deps).commandLocker({
    machineId: refreshed.machineId,
    kind: 'disconnect',
    reason: 'Access token replaced by a refresh',
    credentialId: refreshed.replaced,
    code: 4004,
  });
  return refreshed.response;
}

const invalidCode = () =>
  new AppError('VALIDATION', messages.invalidPairingCode, [
    { path: 'userCode', id: 'INVALID_CODE', message: messages.invalidPairingCode },
  ]);

/** `auth.activateDeviceAuth {machineId, userCode}`: the Pair dialog. */
export async function activateDeviceAuth(
  deps: AppDeps,
  actor: StaffActor,
  input: { machineId: string; userCode: string },
): Promise<{ ok: true }> {
  const now = deps.now();
  const code = normaliseUserCode(input.userCode);
  const { machine } = await requireMachine(deps.db, input.machineId);
  if (machine.archived !== null) throw new AppError('CONFLICT', 'An archived machine cannot be paired');
  if (!code) throw invalidCode();
  await deps.db.transaction().execute(async (tx) => {
    const pending = await findPendingUserCode(tx, code, now);
    if (!pending) throw invalidCode();
    await activateDeviceCode(tx, pending, {
      businessId: machine.businessId,
      machineId: machine.id,
      now,
      byId: actor.userId,
      byDisplay: actor.displayName,
    });
    // Re-pairing: the locker that held this machine before stops now, not when its token expires.
    await revokeCredentials(tx, machine.id, now);
    await auditMachine(tx, deps, actor, 'machine.pair', machine);
  });
  liveOf(deps).commandLocker({ machineId: machine.id, kind: 'disconnect', reason: 'Machine paired again' });
  return { ok: true };
}
