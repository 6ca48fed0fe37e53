import {
  ACTIVE_ALARM_MS,
  alarmLevels,
  alarmTemplateCodes,
  type Contract,
  fleetAlarmsPerMachine,
  fleetPageSize,
  type OutputOf,
  type ParsedInputOf,
} from '@medlocker/core';
import type { StaffActor } from '../../actor.ts';
import type { AppDeps } from '../../deps.ts';
import { decodeIdCursor, pageOf } from '../../rpc/paging.ts';
import { listAlarmRows, listFleetRows, toMachine, toMachineEvent } from './repository.ts';

type FleetSummary = Contract['machines']['fleetSummary'];

/**
 * The dashboard's fleet in two queries a page, where it used to take a call per business and per
 * machine: a page of machines, then the active alarms of those machines (core's `isActiveAlarm`).
 */
export async function fleetSummary(
  deps: AppDeps,
  _actor: StaffActor,
  input: ParsedInputOf<FleetSummary>,
): Promise<OutputOf<FleetSummary>> {
  const { db, now } = deps;
  const after = decodeIdCursor(input.nextToken);
  const rows = await listFleetRows(db, { ...(after ? { after } : {}), limit: fleetPageSize });
  const page = pageOf(rows, fleetPageSize, (r) => [r.id]);
  const alarms = await listAlarmRows(db, {
    machineIds: page.items.map((r) => r.id),
    since: now() - ACTIVE_ALARM_MS,
    codes: alarmTemplateCodes,
    levels: alarmLevels,
    perMachine: fleetAlarmsPerMachine,
  });
  return {
    machines: page.items.map((row) => {
      const { id, businessId, name, outOfOrderStatus, temperatureStatus } = toMachine(row);
      return {
        id,
        businessId,
        businessName: row.business_name,
        name,
        online: row.online,
        lastSeen: row.last_seen,
        outOfOrderStatus,
        temperatureStatus,
      };
    }),
    alarms: alarms.map(toMachineEvent),
    nextToken: page.nextToken,
  };
}
