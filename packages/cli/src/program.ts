import { Command, CommanderError } from 'commander';
import { version } from '../package.json' with { type: 'json' };
import { ApiError, UnreachableError } from './client.ts';
import { alarmsCommands } from './commands/alarms.ts';
import { auditCommand } from './commands/audit.ts';
import { authCommands } from './commands/auth.ts';
import { businessesCommands } from './commands/businesses.ts';
import { groupsCommands } from './commands/groups.ts';
import { machinesCommands } from './commands/machines.ts';
import { messagesCommands } from './commands/messages.ts';
import { ordersCommands } from './commands/orders.ts';
import { patientsCommands } from './commands/patients.ts';
import { retentionCommands } from './commands/retention.ts';
import { settingsCommands } from './commands/settings.ts';
import { statsCommands } from './commands/stats.ts';
import { statsEmailCommand } from './commands/stats-email.ts';
import { templatesCommands } from './commands/templates.ts';
import { usersCommands } from './commands/users.ts';
import { webhooksCommands } from './commands/webhooks.ts';
import { type CliIo, CliRefusal, commandContext, type GlobalOptions, UsageError } from './context.ts';
import { forgetSession } from './credentials.ts';

/** Exit codes: 0 done, 1 refused (by the API, or not logged in), 2 wrong command line, 3 server unreachable. */
export const exitCodes = { ok: 0, refused: 1, usage: 2, unreachable: 3 } as const;

export function buildProgram(io: CliIo): Command {
  const program = new Command('medlocker')
    .description('MedLocker operations from the command line, over the same API as the console')
    .option('--api <url>', 'API base URL (default: $MEDLOCKER_API or http://localhost:3000)')
    .option('--json', 'print results as JSON, for scripts')
    .version(version, '-V, --version', 'print the version')
    .addHelpText(
      'after',
      `\nExit codes:\n  ${exitCodes.ok}  done\n  ${exitCodes.refused}  refused (by the server, or not logged in)\n  ${exitCodes.usage}  wrong command line\n  ${exitCodes.unreachable}  the server could not be reached\n`,
    )
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run medlocker --help for usage)');
  authCommands(program, io);
  usersCommands(program, io);
  patientsCommands(program, io);
  ordersCommands(program, io);
  businessesCommands(program, io);
  groupsCommands(program, io);
  messagesCommands(program, io);
  auditCommand(program, io);
  settingsCommands(program, io);
  templatesCommands(program, io);
  statsCommands(program, io);
  webhooksCommands(program, io);
  machinesCommands(program, io);
  alarmsCommands(program, io);
  retentionCommands(program, io);
  // `stats rebuild` (commands/stats.ts) and `stats email` share the `stats` command.
  statsEmailCommand(
    program.commands.find((c) => c.name() === 'stats') ??
      program.command('stats').description('The monthly figures of the reports'),
    io,
  );
  for (const sub of program.commands) sub.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  for (const sub of program.commands.flatMap((c) => c.commands))
    sub.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  return program;
}

/** Runs one command line (without the `bun main.ts` part) and returns the exit code; never exits itself. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  const json = argv.includes('--json');
  const fail = (code: number, message: string, extra: Record<string, unknown> = {}) => {
    if (json) io.stdout(`${JSON.stringify({ ok: false, error: { message, ...extra } }, null, 2)}\n`);
    else io.stderr(`${message}\n`);
    return code;
  };
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not failures; commander has already printed the usage problem.
      return ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code)
        ? exitCodes.ok
        : exitCodes.usage;
    }
    if (error instanceof UsageError) return fail(exitCodes.usage, error.message);
    if (error instanceof UnreachableError) return fail(exitCodes.unreachable, `${error.message} (${error.url})`);
    if (error instanceof ApiError) {
      if (error.status === 401) {
        // SPEC §8: a 401 clears the credentials; the next command asks to log in again.
        const ctx = commandContext(io, program.opts<GlobalOptions>());
        await forgetSession(ctx.credentialsFile, ctx.apiUrl);
      }
      const details = error.details.map((d) => `  ${d.path || 'input'}: ${d.message}`).join('\n');
      return fail(exitCodes.refused, details ? `${error.message}\n${details}` : error.message, {
        status: error.status,
        code: error.code,
        ...(error.details.length ? { details: error.details } : {}),
      });
    }
    if (error instanceof CliRefusal) return fail(exitCodes.refused, error.message, error.data);
    throw error;
  }
}
