import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { render, Text } from 'ink';
import { ApiError, type Client, UnreachableError } from '../client.ts';
import { type CliIo, CliRefusal, type CommandContext, contextOf, UsageError } from '../context.ts';

/**
 * Reads ids for a bulk command: the arguments, then `--from FILE` (`-` for standard input), one id a
 * line; blank lines and `#` comments (whole lines or the rest of a line) are ignored, repeats dropped.
 */
export async function idsFrom(io: CliIo, args: string[], from: string | undefined): Promise<string[]> {
  let text = '';
  if (from === '-') text = await io.readStdin();
  else if (from) {
    try {
      text = await readFile(from, 'utf8');
    } catch {
      throw new UsageError(`Cannot read ${from}`);
    }
  }
  const fromFile = text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
  const ids = [...new Set([...args, ...fromFile])];
  if (ids.length === 0) throw new UsageError('Give one or more ids, or --from FILE (- for standard input)');
  return ids;
}

const WIDTH = 30;

function Bar({ label, done, total, failed }: { label: string; done: number; total: number; failed: number }) {
  const ratio = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(ratio * WIDTH);
  return (
    <Text>
      {label} <Text color="green">{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(WIDTH - filled)}</Text> {done}/{total}
      {failed > 0 ? <Text color="red"> ({failed} failed)</Text> : null}
    </Text>
  );
}

export type BulkFailure = { id: string; status: number | null; code: string; message: string };
export type BulkResult = { ok: boolean; total: number; succeeded: string[]; failed: BulkFailure[] };

/**
 * Runs `action` for every id, one at a time, past failures: an Ink progress bar on a terminal (on
 * stderr), a plain line per id otherwise, nothing extra with --json. Each failure is reported with
 * the server's message; when any failed the command exits 1 after the summary. A 401 or an
 * unreachable server stops the run at once: every other id would fail the same way.
 */
export async function runBulk(
  ctx: CommandContext,
  label: string,
  ids: string[],
  action: (id: string) => Promise<unknown>,
): Promise<void> {
  const { io } = ctx;
  const result: BulkResult = { ok: true, total: ids.length, succeeded: [], failed: [] };
  const ink =
    io.interactive && !ctx.json
      ? render(<Bar label={label} done={0} total={ids.length} failed={0} />, {
          stdout: process.stderr,
          patchConsole: false,
        })
      : undefined;
  const show = () =>
    ink?.rerender(
      <Bar
        label={label}
        done={result.succeeded.length + result.failed.length}
        total={ids.length}
        failed={result.failed.length}
      />,
    );
  try {
    for (const id of ids) {
      try {
        await action(id);
        result.succeeded.push(id);
        if (!ink && !ctx.json) io.stderr(`${label} ${id}: done\n`);
      } catch (error) {
        if (error instanceof UnreachableError || (error instanceof ApiError && error.status === 401)) throw error;
        if (!(error instanceof ApiError)) throw error;
        result.failed.push({ id, status: error.status, code: error.code, message: error.message });
        if (!ink && !ctx.json) io.stderr(`${label} ${id}: failed: ${error.message}\n`);
      }
      show();
    }
  } finally {
    ink?.unmount();
  }
  result.ok = result.failed.length === 0;
  const summary = `${label}: ${result.succeeded.length} of ${result.total} done, ${result.failed.length} failed`;
  if (!result.ok) {
    // The refusal carries every failure, so --json output (`error.message`) lists them too.
    throw new CliRefusal([summary, ...result.failed.map((f) => `  ${f.id}: ${f.message}`)].join('\n'));
  }
  ctx.print(result, () => summary);
}

type BulkCall = (client: Client, id: string) => Promise<unknown>;

/**
 * A bulk command's action: the ids from the arguments and `--from` (a usage error before asking for
 * the session), then `call` for each, past failures.
 */
export async function bulkAction(
  io: CliIo,
  command: Command,
  run: { label: string; args: string[]; from: string | undefined; call: BulkCall },
): Promise<void> {
  const ctx = contextOf(io, command);
  const ids = await idsFrom(io, run.args, run.from);
  const client = ctx.client((await ctx.session()).token);
  await runBulk(ctx, run.label, ids, (id) => run.call(client, id));
}

/** `archive` and `unarchive` under `parent` (businesses, groups): ids as arguments or --from FILE. */
export function archiveCommands(
  parent: Command,
  io: CliIo,
  spec: { noun: string; idsLabel: string; archive: BulkCall; unarchive: BulkCall },
): void {
  for (const [name, label] of [
    ['archive', 'Archive'],
    ['unarchive', 'Unarchive'],
  ] as const) {
    parent
      .command(name)
      .description(
        `${label} ${spec.noun}: ids as arguments or --from FILE (one a line, # comments); goes on past failures`,
      )
      .argument('[ids...]', spec.idsLabel)
      .option('--from <file>', 'read ids from a file, - for standard input')
      .action((args: string[], options: { from?: string }, command: Command) =>
        bulkAction(io, command, { label, args, from: options.from, call: spec[name] }),
      );
  }
}
