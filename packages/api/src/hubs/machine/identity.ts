import type { Actor } from '../../context/actor.ts';

/**
 * Who a connection speaks for: fixed at the upgrade, from the access token. `isTest`: a QA test machine,
 * whose pushes stay off the fleet dashboard.
 */
export type LockerIdentity = {
  machineId: string;
  businessId: string;
  credentialId: string;
  expiresAt: number;
  isTest: boolean;
};

export type LockerActor = Extract<Actor, { kind: 'locker' }>;

/** The actor the hub's service calls act as for a locker's connection. */
export const lockerActor = (who: LockerIdentity, requestId: string = Bun.randomUUIDv7()): LockerActor => ({
  kind: 'locker',
  machineId: who.machineId,
  businessId: who.businessId,
  origin: { via: 'locker', requestId, ip: null, userAgent: null },
});
