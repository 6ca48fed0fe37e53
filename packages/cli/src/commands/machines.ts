import type { Contract, OutputOf } from '@medlocker/core';
import { type Command, Option } from 'commander';
import type { Client } from '../client.ts';
import { type CliIo, CliRefusal, signedIn, UsageError } from '../context.ts';

type Answer = OutputOf<Contract['machines']['triggerStatus']>;

const requestedMessages = ['StatusNotification', 'Heartbeat', 'BootNotification'] as const;

/**
 * Asks before a command that changes the locker: on a terminal, type "yes"; elsewhere `--yes` says it.
 * Anything else sends nothing.
 */
async function confirmed(io: CliIo, options: { yes?: boolean }, question: string): Promise<void> {
  if (options.yes) return;
  if (!io.interactive) throw new UsageError(`${question} Add --yes to confirm`);
  const answers = await io.ask([{ name: 'confirm', label: `${question} Type yes to confirm` }]);
  if (answers?.confirm?.trim().toLowerCase() !== 'yes') throw new CliRefusal('Nothing was sent');
}

/** Prints the locker's answer; a refusal (Rejected, NotSupported) exits 1 with the answer in --json. */
async function send(io: CliIo, command: Command, call: (client: Client) => Promise<Answer>, what: string) {
  const { ctx, client } = await signedIn(io, command);
  const answer = await call(client);
  if (answer.status !== 'Accepted') {
    throw new CliRefusal(`The locker answered ${answer.status}: ${what}`, {
      status: answer.status,
      event: answer.event,
    });
  }
  ctx.print(answer, () => `The locker answered Accepted: ${what}`);
}

/**
 * `medlocker machines status|configure|restart <machine-id>`: the commands support staff send a
 * connected locker (docs/LOCKER-PROTOCOL.md §7), each answered with the locker's status. An offline
 * locker, an archived machine (409) or a locker that stays silent for 30 s (503) exit 1.
 */
export function machinesCommands(program: Command, io: CliIo): void {
  const machines = program
    .command('machines')
    .description("Send a machine's locker a command: ask for its status, change a setting, restart it");

  machines
    .command('status')
    .description('Ask the locker to send a message now (TriggerStatus); pharmacy Admins may too')
    .argument('<machine-id>', 'the machine')
    .addOption(
      new Option('--message <message>', 'the message to send').choices(requestedMessages).default('StatusNotification'),
    )
    .action(async (id: string, options: { message: (typeof requestedMessages)[number] }, command: Command) => {
      await send(
        io,
        command,
        (client) => client.call('machines', 'triggerStatus', { id, requested: options.message }),
        `it sends a ${options.message}`,
      );
    });

  machines
    .command('configure')
    .description('Change one setting of the locker (ChangeConfiguration), e.g. HeartbeatInterval 30')
    .argument('<machine-id>', 'the machine')
    .argument('<key>', 'the setting, as the locker names it')
    .argument('<value>', 'its new value')
    .option('--yes', 'confirm without asking')
    .action(async (id: string, key: string, value: string, options: { yes?: boolean }, command: Command) => {
      await confirmed(io, options, `Set ${key} to "${value}" on the locker of machine ${id}?`);
      await send(
        io,
        command,
        (client) => client.call('machines', 'changeConfiguration', { id, key, value }),
        `${key} set to "${value}"`,
      );
    });

  machines
    .command('restart')
    .description('Restart the locker (Reset): Soft restarts its software, --hard power-cycles it')
    .argument('<machine-id>', 'the machine')
    .option('--hard', 'a Hard reset instead of a Soft one')
    .option('--yes', 'confirm without asking')
    .action(async (id: string, options: { hard?: boolean; yes?: boolean }, command: Command) => {
      const type = options.hard ? 'Hard' : 'Soft';
      await confirmed(io, options, `Restart the locker of machine ${id} (${type})?`);
      await send(
        io,
        command,
        (client) => client.call('machines', 'resetLocker', { id, type }),
        `it restarts (${type}) and connects again`,
      );
    });
}
