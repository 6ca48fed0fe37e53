import { AppError, counted, patientAuthPolicy as policy } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { addressKey } from '../../rate-limits/address-key.ts';
import { type AddressBucket, releaseAddressAttempt, reserveAddressAttempt } from './repository.ts';

/*
 * The patient identity checks' limits per client address, across every order (docs/SECURITY.md,
 * "Patient sessions"): the token buckets staff sign-ins use (table
 * login_address_failures, one statement takes a token before anything is checked, shared by every api
 * process), under keys of their own. Calls without an address (the tests' in-process app) are not limited.
 */
const triesBucket: AddressBucket = {
  capacity: policy.addressWrongTries,
  perMs: policy.addressTriesMinutes * 60_000,
};
const codesBucket: AddressBucket = { capacity: policy.addressCodesPerHour, perMs: 60 * 60_000 };

export type GiveBack = () => Promise<void>;
const nothingToGiveBack: GiveBack = async () => {};

/**
 * Takes one token from the address's bucket before the order is even looked up (an unknown order is a
 * guess too), or refuses the call unchecked: 429 with Retry-After. Answers how to give the token back
 * when the call turns out not to be a guess (the right answer; a locked link, which checked nothing).
 */
export async function takeAddress(
  deps: AppDeps,
  actor: Actor,
  kind: 'tries' | 'codes',
  orderId: string,
): Promise<GiveBack> {
  if (actor.origin.ip === null) return nothingToGiveBack;
  const key = `patient-${kind}:${addressKey(actor.origin.ip)}`;
  const bucket = kind === 'tries' ? triesBucket : codesBucket;
  const retryAfter = await reserveAddressAttempt(deps.db, key, bucket, deps.now());
  if (retryAfter === null) return () => releaseAddressAttempt(deps.db, key, bucket);
  await audit(deps.db, deps, actor, {
    action: 'patient.verify.throttled',
    entityType: 'order',
    entityId: orderId,
    details: { kind },
  });
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  const wait = counted(minutes, 'minute');
  throw new AppError(
    'RATE_LIMITED',
    kind === 'tries'
      ? `Too many tries from your network. Please try again in ${wait}, or contact the pharmacy.`
      : `Too many codes were asked for from your network. Please try again in ${wait}, or contact the pharmacy.`,
    undefined,
    retryAfter,
  );
}
