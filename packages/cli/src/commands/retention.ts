import { type RetentionCounts, type RetentionPolicy, retentionKindLabels } from '@medlocker/core';
import type { Command } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import { type CliIo, signedIn } from '../context.ts';

/*
 * `medlocker retention`: the retention policy in force and what the next nightly run would remove
 * (docs/decisions/retention.md), the product's (support) or a business's.
 */

const periodLines = (policy: RetentionPolicy) => [
  `Finished orders and their messages: ${policy.orderDays} days`,
  `Patients with no order: ${policy.patientYears} years`,
  `Temperature readings: ${policy.temperatureDays} days`,
  `Audit entries: ${policy.auditDays} days`,
  `Delivery attempts: ${policy.deliveryDays} days`,
];

const previewLines = (counts: RetentionCounts) =>
  (Object.keys(retentionKindLabels) as (keyof RetentionCounts)[]).map(
    (kind) => `${retentionKindLabels[kind]}: ${counts[kind]}`,
  );

export function retentionCommands(program: Command, io: CliIo): void {
  program
    .command('retention')
    .description('The retention policy and what the next nightly run would remove (the product, or one business)')
    .option('--business <id|name>', "a business's policy (its overrides applied) and preview")
    .action(async (options: { business?: string }, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      if (options.business) {
        const businessId = await businessIdOf(client, options.business);
        const result = await client.call('dataProtection', 'getBusinessRetention', { businessId });
        ctx.print(result, () =>
          [...periodLines(result.effective), '', 'The next run would remove:', ...previewLines(result.preview)].join(
            '\n',
          ),
        );
        return;
      }
      const result = await client.call('dataProtection', 'getRetentionPolicy', {});
      ctx.print(result, () =>
        [...periodLines(result.policy), '', 'The next run would remove:', ...previewLines(result.preview)].join('\n'),
      );
    });
}
