import type { Actor } from '../../actor.ts';

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

/**
 * The locker's machine no longer exists (a test machine removed while its locker was connected) or was
 * archived: the locker is told, its connection closed with 4001, and it pairs again.
 */
export class MachineGone extends Error {
  constructor(
    readonly machineId: string,
    readonly archived = false,
  ) {
    super(archived ? `Machine ${machineId} is archived` : `Machine ${machineId} no longer exists`);
  }
}
