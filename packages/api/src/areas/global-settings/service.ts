import {
  type AlarmTemplateCode,
  alarmPlaceholders,
  alarmTemplateCodes,
  type Contract,
  defaultAlarmMessages,
  type OutputOf,
  type ParsedInputOf,
} from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { AuthedContext } from '../../rpc/context.ts';
import { changedPaths } from '../business-settings/changes.ts';
import {
  type Db,
  deleteAlarmTemplates,
  readAlarmTemplates,
  readGlobalSettings,
  writeAlarmTemplate,
  writeGlobalSettings,
} from './repository.ts';

type Area = Contract['globalSettings'];
type In<M extends keyof Area> = ParsedInputOf<Area[M]>;
type Out<M extends keyof Area> = Promise<OutputOf<Area[M]>>;

export async function getGlobalSettings(_input: In<'getGlobalSettings'>, ctx: AuthedContext): Out<'getGlobalSettings'> {
  const row = await readGlobalSettings(ctx.deps.db);
  return row
    ? { settings: { nhsPrescriptionCharge: row.nhsPrescriptionCharge }, updated: row.updated }
    : { settings: null, updated: null };
}

export async function createOrUpdateGlobalSettings(
  input: In<'createOrUpdateGlobalSettings'>,
  ctx: AuthedContext,
): Out<'createOrUpdateGlobalSettings'> {
  const now = ctx.deps.now();
  await ctx.deps.db.transaction().execute(async (tx) => {
    const before = await readGlobalSettings(tx);
    await writeGlobalSettings(tx, input.nhsPrescriptionCharge, now, ctx.principal.userId);
    if (before?.nhsPrescriptionCharge !== input.nhsPrescriptionCharge) {
      // A charge is not a secret: the old and new amounts make the entry useful.
      await audit(tx, ctx, {
        action: 'globalSettings.update',
        entityType: 'globalSettings',
        details: {
          fields: ['nhsPrescriptionCharge'],
          from: before?.nhsPrescriptionCharge ?? null,
          to: input.nhsPrescriptionCharge,
        },
      });
    }
  });
  return getGlobalSettings({}, ctx);
}

async function alarmTemplatesOf(db: Db) {
  const own = await readAlarmTemplates(db);
  const templates = { ...defaultAlarmMessages };
  const customised: AlarmTemplateCode[] = [];
  for (const code of alarmTemplateCodes) {
    const body = own.get(code);
    if (body !== undefined) {
      templates[code] = body;
      customised.push(code);
    }
  }
  return { templates, defaults: { ...defaultAlarmMessages }, customised, placeholders: [...alarmPlaceholders] };
}

export async function getAlarmMessageTemplates(
  _input: In<'getAlarmMessageTemplates'>,
  ctx: AuthedContext,
): Out<'getAlarmMessageTemplates'> {
  return alarmTemplatesOf(ctx.deps.db);
}

export async function updateAlarmMessageTemplates(
  input: In<'updateAlarmMessageTemplates'>,
  ctx: AuthedContext,
): Out<'updateAlarmMessageTemplates'> {
  const now = ctx.deps.now();
  return ctx.deps.db.transaction().execute(async (tx) => {
    const before = await alarmTemplatesOf(tx);
    await deleteAlarmTemplates(tx, input.reset ?? []);
    for (const code of alarmTemplateCodes) {
      const body = input.templates[code];
      if (body !== undefined) await writeAlarmTemplate(tx, code, body, now);
    }
    const after = await alarmTemplatesOf(tx);
    const fields = changedPaths(before.templates, after.templates);
    if (fields.length > 0) {
      await audit(tx, ctx, {
        action: 'alarmMessageTemplates.update',
        entityType: 'alarmMessageTemplates',
        details: { fields },
      });
    }
    return after;
  });
}
