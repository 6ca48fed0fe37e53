import {
  type BusinessFeatureSettings,
  controlledSettingKeys,
  formatPence,
  GlobalSettingsInput,
  isArkErrors,
} from '@medlocker/core';
import type { Command } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import { type CliIo, type CommandContext, commandContext, type GlobalOptions, UsageError } from '../context.ts';
import { applyAssignments, flatten, parseAssignment } from './settings-values.ts';

type Target = { business?: string; global?: boolean };

function targetOf(options: Target): { businessId: string } | 'global' {
  if (options.global && options.business) throw new UsageError('Give --business or --global, not both');
  if (options.global) return 'global';
  if (options.business) return { businessId: options.business };
  throw new UsageError('Give --business ID or --global');
}

const isControlled = (key: string) => (controlledSettingKeys as readonly string[]).includes(key);

const show = (value: unknown) => (value === null ? 'null' : String(value));

async function businessSettings(ctx: CommandContext, business: string) {
  const client = ctx.client((await ctx.session()).token);
  const businessId = await businessIdOf(client, business);
  const features = await client.call('businessSettings', 'getBusinessFeatureSettings', { businessId });
  return { client, features, businessId };
}

function printBusiness(ctx: CommandContext, businessId: string, archived: boolean, settings: BusinessFeatureSettings) {
  ctx.print({ businessId, archived, settings, controlled: controlledSettingKeys }, () =>
    [
      ...(archived ? ['This business is archived: its settings are read-only.', ''] : []),
      ...flatten(settings).map(
        ([k, v]) => `${k} = ${show(v)}${isControlled(k.split('.')[0] as string) ? '   (support-controlled)' : ''}`,
      ),
    ].join('\n'),
  );
}

/** `medlocker settings get | set`: global settings and a business's feature and controlled settings. */
export function settingsCommands(program: Command, io: CliIo): void {
  const settings = program.command('settings').description('Global settings and business settings');

  settings
    .command('get')
    .description("Show the global settings, or a business's settings (every field, defaults filled in)")
    .option('--business <id|name>', 'the business: its id or its name')
    .option('--global', 'the global settings')
    .action(async (options: Target, command: Command) => {
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      const target = targetOf(options);
      if (target === 'global') {
        const client = ctx.client((await ctx.session()).token);
        const result = await client.call('globalSettings', 'getGlobalSettings', {});
        const pence = result.settings?.nhsPrescriptionCharge;
        ctx.print(result, () =>
          pence === undefined ? 'nhsPrescriptionCharge is not set' : `nhsPrescriptionCharge = ${formatPence(pence)}`,
        );
        return;
      }
      const { features, businessId } = await businessSettings(ctx, target.businessId);
      printBusiness(ctx, businessId, features.archived, features.settings);
    });

  settings
    .command('set')
    .description(
      'Change settings: key=value pairs, nested keys dotted (orderCollection.defaultCollectionWindow=14); ' +
        'values typed as the setting is (true/false, whole numbers, text or null). --global takes nhsPrescriptionCharge in pounds (9.90)',
    )
    .argument('<assignments...>', 'key=value pairs')
    .option('--business <id|name>', 'the business: its id or its name')
    .option('--global', 'the global settings')
    .action(async (assignments: string[], options: Target, command: Command) => {
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      const target = targetOf(options);
      if (target === 'global') {
        const values: Record<string, string> = {};
        for (const text of assignments) {
          const { path, raw } = parseAssignment(text);
          if (path.join('.') !== 'nhsPrescriptionCharge')
            throw new UsageError(`Unknown global setting '${path.join('.')}'`);
          values.nhsPrescriptionCharge = raw;
        }
        const parsed = GlobalSettingsInput(values);
        if (isArkErrors(parsed)) throw new UsageError(`nhsPrescriptionCharge: ${parsed.summary}`);
        const client = ctx.client((await ctx.session()).token);
        const result = await client.call('globalSettings', 'createOrUpdateGlobalSettings', parsed);
        const pence = result.settings?.nhsPrescriptionCharge ?? parsed.nhsPrescriptionCharge;
        ctx.print(result, () => `nhsPrescriptionCharge = ${formatPence(pence)}`);
        return;
      }
      const { client, features, businessId } = await businessSettings(ctx, target.businessId);
      const changes = applyAssignments(features.settings, assignments);
      const controlled = Object.fromEntries(Object.entries(changes).filter(([k]) => isControlled(k)));
      const feature = Object.fromEntries(Object.entries(changes).filter(([k]) => !isControlled(k)));
      let latest = features;
      if (Object.keys(feature).length > 0) {
        latest = await client.call('businessSettings', 'updateBusinessFeatureSettings', {
          businessId,
          settings: feature,
        });
      }
      if (Object.keys(controlled).length > 0) {
        await client.call('businessSettings', 'updateBusinessControlledSettings', { businessId, settings: controlled });
        latest = await client.call('businessSettings', 'getBusinessFeatureSettings', { businessId });
      }
      const keys = assignments.map((a) => parseAssignment(a).path.join('.'));
      const now = new Map(flatten(latest.settings));
      ctx.print({ businessId, settings: latest.settings, changed: keys }, () =>
        keys.map((k) => `${k} = ${show(now.get(k))}`).join('\n'),
      );
    });
}
