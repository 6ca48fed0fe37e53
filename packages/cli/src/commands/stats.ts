import type { Command } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import { type CliIo, commandContext, type GlobalOptions, UsageError } from '../context.ts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** `medlocker stats rebuild`: support recomputes the stored monthly figures. */
export function statsCommands(program: Command, io: CliIo): void {
  const stats = program.command('stats').description('The monthly figures of the reports (support)');

  stats
    .command('rebuild')
    .description(
      'Recompute the monthly figures from the orders, messages and machine events, from a month to this one; running it twice changes nothing',
    )
    .option('--business <id|name>', 'only this business (default: every business)')
    .option('--from <YYYY-MM>', "the first month to recompute (default: each business's first month with data)")
    .action(async (options: { business?: string; from?: string }, command: Command) => {
      if (options.from !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(options.from)) {
        throw new UsageError(`--from must be a month written YYYY-MM, e.g. 2026-01, not '${options.from}'`);
      }
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      const client = ctx.client((await ctx.session()).token);
      const businessId = options.business === undefined ? undefined : await businessIdOf(client, options.business);
      // Every business: call after call, each carrying on where the last stopped (about 10 s each).
      const result = { businesses: 0, months: 0, changed: 0 };
      let nextToken: string | null = null;
      do {
        const page: { businesses: number; months: number; changed: number; nextToken: string | null } =
          await client.call('reports', 'rebuildMonthlyStats', {
            ...(businessId !== undefined ? { businessId } : {}),
            ...(options.from !== undefined ? { from: options.from } : {}),
            ...(nextToken !== null ? { nextToken } : {}),
          });
        result.businesses += page.businesses;
        result.months += page.months;
        result.changed += page.changed;
        nextToken = page.nextToken;
      } while (nextToken !== null);
      ctx.print(
        result,
        () =>
          `${plural(result.months, 'month', 'months')} of ${plural(result.businesses, 'business', 'businesses')} recomputed: ${plural(result.changed, 'row', 'rows')} changed`,
      );
    });
}
