import { readFile, writeFile } from 'node:fs/promises';
import {
  counted,
  type SmsTemplateKey,
  smsTemplateErrors,
  smsTemplateKeys,
  smsTemplateMaxLength,
  validationMessage,
} from '@medlocker/core';
import type { Command } from 'commander';
import { businessIdOf, signedInFor } from '../business-ref.ts';
import { ApiError, type Client } from '../client.ts';
import { type CliIo, CliRefusal, type CommandContext, contextOf, UsageError } from '../context.ts';

type ImportOptions = { business?: string; businessesFrom?: string; dryRun?: boolean };

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`Cannot read ${path}`);
  }
}

/**
 * The templates of a file: `{ "orderReady": "…", … }` or an export's `{ "templates": { … } }`.
 * Every problem of every template is listed (core's rules: required and unknown placeholders, blank,
 * too long, unknown keys), so one run shows all there is to fix.
 */
export function checkTemplatesFile(text: string): {
  templates: Partial<Record<SmsTemplateKey, string>>;
  problems: string[];
} {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { templates: {}, problems: ['The file is not valid JSON'] };
  }
  const object = (data as { templates?: unknown } | null)?.templates ?? data;
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    return { templates: {}, problems: ['Expected an object of templates by key, e.g. {"orderReady": "…"}'] };
  }
  const templates: Partial<Record<SmsTemplateKey, string>> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (!(smsTemplateKeys as readonly string[]).includes(key)) {
      problems.push(`${key}: unknown template (expected one of ${smsTemplateKeys.join(', ')})`);
      continue;
    }
    const k = key as SmsTemplateKey;
    if (typeof value !== 'string') problems.push(`${key}: must be text`);
    else if (value.trim() === '') problems.push(`${key}: Please enter a value`);
    else if (value.length > smsTemplateMaxLength)
      problems.push(`${key}: ${validationMessage.maxLength(smsTemplateMaxLength)}`);
    else {
      const errors = smsTemplateErrors(k, value);
      for (const e of errors) problems.push(`${key}: ${e.message}`);
      if (errors.length === 0) templates[k] = value;
    }
  }
  if (problems.length === 0 && Object.keys(templates).length === 0) problems.push('The file holds no templates');
  return { templates, problems };
}

/** Business ids from a comma list and/or a file (one a line, or commas; '#' starts a comment), deduplicated. */
export async function businessIdsOf(options: ImportOptions): Promise<string[]> {
  if (!options.business && !options.businessesFrom) {
    throw new UsageError('Give --business ID,ID… or --businesses-from FILE');
  }
  const parts = (options.business ?? '').split(',');
  if (options.businessesFrom) {
    for (const line of (await readText(options.businessesFrom)).split(/\r?\n/)) {
      parts.push(...(line.split('#')[0] ?? '').split(','));
    }
  }
  const ids = [...new Set(parts.map((p) => p.trim()).filter(Boolean))];
  if (ids.length === 0) throw new UsageError('No business ids given');
  return ids;
}

/** `medlocker templates export | import`: SMS templates rolled out to many businesses at once. */
export function templatesCommands(program: Command, io: CliIo): void {
  const templates = program.command('templates').description("Businesses' SMS templates: export and bulk import");
  exportCommand(templates, io);
  importCommand(templates, io);
}

function exportCommand(templates: Command, io: CliIo): void {
  templates
    .command('export')
    .description("Write a business's eight SMS templates (its own wording or the default) as JSON")
    .requiredOption('--business <id|name>', 'the business: its id or its name')
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (options: { business: string; out?: string }, command: Command) => {
      const { ctx, client, businessId } = await signedInFor(io, command, options.business);
      const result = await client.call('businessSettings', 'getBusinessSmsTemplates', { businessId });
      const text = `${JSON.stringify({ templates: result.templates }, null, 2)}\n`;
      if (!options.out) {
        io.stdout(text);
        return;
      }
      await writeFile(options.out, text);
      ctx.print(
        { ok: true, file: options.out, customised: result.customised },
        () => `Templates written to ${options.out}`,
      );
    });
}

function importCommand(templates: Command, io: CliIo): void {
  templates
    .command('import')
    .description(
      'Set SMS templates of many businesses from a JSON file. Every template and every business is checked before any is written',
    )
    .argument('<file>', 'JSON: {"orderReady": "…", …} (keys left out keep their wording) or an export')
    .option('--business <ids|names>', 'businesses, comma-separated: ids or names')
    .option('--businesses-from <file>', 'a file of business ids, one a line')
    .option('--dry-run', 'check everything; write nothing')
    .action(async (file: string, options: ImportOptions, command: Command) => {
      const ctx = contextOf(io, command);
      const { templates: checked, problems } = checkTemplatesFile(await readText(file));
      const refs = await businessIdsOf(options);
      if (problems.length > 0) {
        throw new CliRefusal(`The templates cannot be imported; nothing was written:\n  ${problems.join('\n  ')}`);
      }
      const client = ctx.client((await ctx.session()).token);
      const businessIds = await writableBusinesses(ctx, client, refs);
      const keys = Object.keys(checked);
      if (options.dryRun) {
        ctx.print(
          { ok: true, dryRun: true, businesses: businessIds, templates: keys },
          () =>
            `Dry run: ${counted(keys.length, 'template')} (${keys.join(', ')}) checked for ${counted(businessIds.length, 'business', 'businesses')}; nothing was written`,
        );
        return;
      }
      await writeTemplates(ctx, client, businessIds, checked);
    });
}

/** Progress on stderr, unless --json. */
const sayer = (ctx: CommandContext) => (line: string) => {
  if (!ctx.json) ctx.io.stderr(`${line}\n`);
};

/**
 * The ids of the businesses named, once every one is known to exist and be editable: before the first
 * is written, every problem is reported at once, so one run shows all that needs fixing.
 */
async function writableBusinesses(ctx: CommandContext, client: Client, refs: string[]): Promise<string[]> {
  const say = sayer(ctx);
  const refused: string[] = [];
  const businessIds: string[] = [];
  for (const ref of refs) {
    try {
      businessIds.push(await businessIdOf(client, ref));
    } catch (error) {
      if (!(error instanceof CliRefusal)) throw error;
      refused.push(`${ref}: ${error.message}`);
    }
  }
  for (const [i, businessId] of businessIds.entries()) {
    say(`Checking: ${i + 1}/${businessIds.length} businesses`);
    try {
      const current = await client.call('businessSettings', 'getBusinessSmsTemplates', { businessId });
      if (current.archived) refused.push(`${businessId}: archived, its settings cannot be changed`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refused.push(`${businessId}: ${error.message}`);
    }
  }
  if (refused.length > 0) {
    throw new CliRefusal(`The templates cannot be imported; nothing was written:\n  ${refused.join('\n  ')}`);
  }
  return businessIds;
}

/** Sets the templates of each business in turn, past failures; any failure makes the exit code 1. */
async function writeTemplates(
  ctx: CommandContext,
  client: Client,
  businessIds: string[],
  templates: Partial<Record<SmsTemplateKey, string>>,
): Promise<void> {
  const say = sayer(ctx);
  const keys = Object.keys(templates);
  const updated: string[] = [];
  const failed: { businessId: string; message: string }[] = [];
  for (const [i, businessId] of businessIds.entries()) {
    try {
      await client.call('businessSettings', 'updateBusinessSmsTemplates', { businessId, templates });
      updated.push(businessId);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      failed.push({ businessId, message: error.message });
    }
    say(`Importing: ${i + 1}/${businessIds.length} businesses`);
  }
  const report = [
    `Templates ${keys.join(', ')} set for ${updated.length} of ${counted(businessIds.length, 'business', 'businesses')}`,
    ...failed.map((f) => `  failed ${f.businessId}: ${f.message}`),
  ].join('\n');
  if (failed.length > 0) throw new CliRefusal(report);
  ctx.print({ ok: true, updated, failed, templates: keys }, () => report);
}
