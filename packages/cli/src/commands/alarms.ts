import {
  type Alarm,
  type AlarmReason,
  alarmHolder,
  alarmNameInWords,
  alarmReasonKeys,
  alarmsListMax,
  formatDateTime,
} from '@medlocker/core';
import { type Command, Option } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import type { Client } from '../client.ts';
import { type CliIo, CliRefusal, signedIn } from '../context.ts';
import { renderTable } from '../ui/table.tsx';

const columns = [
  { header: 'Raised', value: (a: Alarm) => formatDateTime(a.raisedAt) },
  { header: 'Id', value: (a: Alarm) => a.id },
  { header: 'Machine', value: (a: Alarm) => `${a.machineName} (${a.businessName})` },
  {
    header: 'Alarm',
    value: (a: Alarm) => `${a.code} ${alarmNameInWords(a.name)}${a.repeats ? ` ×${a.repeats + 1}` : ''}`,
  },
  {
    header: 'State',
    value: (a: Alarm) =>
      a.resolved
        ? `Resolved ${a.resolved.how === 'locker' ? 'by the locker' : `by ${a.resolved.by?.displayName}`}`
        : alarmHolder(a),
  },
];

type ListOptions = { business?: string; machine?: string; resolved?: boolean };

/**
 * The unresolved alarm the caller reaches with this id, for its machine (the contract names an alarm by
 * its machine, whose access it follows); a resolved or unknown one is refused.
 */
async function unresolvedAlarm(client: Client, id: string): Promise<Alarm> {
  const { alarms } = await client.call('alarms', 'list', {});
  const alarm = alarms.find((a) => a.id === id);
  if (!alarm) throw new CliRefusal(`No unresolved alarm ${id} among the machines you reach`);
  return alarm;
}

/**
 * `medlocker alarms list|acknowledge|resolve`: critical alarms from the command line, as on the
 * console's Open alarms panel (docs/decisions/machines.md, "Alarms: acknowledged, escalated, resolved").
 */
export function alarmsCommands(program: Command, io: CliIo): void {
  const alarms = program
    .command('alarms')
    .description('Critical alarms of the machines you reach: list them, hold one (acknowledge), resolve one');

  alarms
    .command('list')
    .description(`Unresolved alarms, newest first, with who holds them (at most ${alarmsListMax})`)
    .option('--business <id|name>', "only this business's machines")
    .option('--machine <id>', "only this machine's (with --resolved, its history too)")
    .option('--resolved', 'also the resolved ones')
    .action(async (options: ListOptions, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      const businessId = options.business === undefined ? undefined : await businessIdOf(client, options.business);
      const { alarms: found } = await client.call('alarms', 'list', {
        ...(businessId ? { businessId } : {}),
        ...(options.machine ? { machineId: options.machine } : {}),
        ...(options.resolved ? { resolved: true } : {}),
      });
      ctx.print({ alarms: found }, () => (found.length === 0 ? 'No open alarms' : renderTable(found, columns)));
    });

  alarms
    .command('acknowledge')
    .description('Hold an open alarm in your name, with a reason and a note: its escalation stops')
    .argument('<alarm-id>', 'the alarm (alarms list shows its id)')
    .addOption(new Option('--reason <reason>', 'why you hold it').choices(alarmReasonKeys).makeOptionMandatory())
    .option('--note <text>', 'a note for your colleagues')
    .action(async (id: string, options: { reason: AlarmReason; note?: string }, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      const { machineId } = await unresolvedAlarm(client, id);
      const { alarm } = await client.call('alarms', 'acknowledge', {
        machineId,
        id,
        reason: options.reason,
        ...(options.note ? { note: options.note } : {}),
      });
      ctx.print({ alarm }, () => `${alarm.code} at ${alarm.machineName}: ${alarmHolder(alarm)}`);
    });

  alarms
    .command('resolve')
    .description('Resolve an open or acknowledged alarm in your name')
    .argument('<alarm-id>', 'the alarm (alarms list shows its id)')
    .option('--note <text>', 'what was done')
    .action(async (id: string, options: { note?: string }, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      const { machineId } = await unresolvedAlarm(client, id);
      const { alarm } = await client.call('alarms', 'resolve', {
        machineId,
        id,
        ...(options.note ? { note: options.note } : {}),
      });
      ctx.print({ alarm }, () => `${alarm.code} at ${alarm.machineName}: resolved`);
    });
}
