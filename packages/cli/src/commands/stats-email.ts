import { formatMonth } from '@medlocker/core';
import type { Command } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import { type CliIo, commandContext, type GlobalOptions, UsageError } from '../context.ts';

const isoMonth = /^(\d{4})-(0[1-9]|1[0-2])$/;

/**
 * `medlocker stats email --business ID [--month YYYY-MM]`: sends (or sends again) a business's monthly
 * report to its notification emails (reports/sendMonthlyEmail). Added to the `stats` command
 * (commands/stats.ts holds `stats rebuild`), as `statsEmailCommand(stats, io)`.
 */
export function statsEmailCommand(stats: Command, io: CliIo): void {
  stats
    .command('email')
    .description("Email a business's monthly report, with its CSV, to the business's notification emails")
    .requiredOption('--business <id|name>', 'the business: its id or its name')
    .option('--month <YYYY-MM>', 'the London month to report (default: last month)')
    .action(async (options: { business: string; month?: string }, command: Command) => {
      const month = options.month === undefined ? undefined : isoMonth.exec(options.month);
      if (month === null) {
        throw new UsageError(`--month must be a month written YYYY-MM, e.g. 2026-10, not '${options.month}'`);
      }
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      const client = ctx.client((await ctx.session()).token);
      const businessId = await businessIdOf(client, options.business);
      const result = await client.call('reports', 'sendMonthlyEmail', {
        businessId,
        ...(month ? { year: Number(month[1]), month: Number(month[2]) } : {}),
      });
      ctx.print(
        result,
        () => `The ${formatMonth(result.year, result.month)} report was sent to ${result.sentTo.join(', ')}`,
      );
    });
}
