import {
  alarmPlaceholders,
  alarmTemplateCodes,
  defaultAlarmMessages,
  defaultInactiveAccountDays,
  templatesOverDefaults,
} from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { changedPaths } from '../business-settings/index.ts';
import {
  type Db,
  deleteAlarmTemplates,
  readAlarmTemplates,
  readGlobalSettings,
  writeAlarmTemplate,
  writeGlobalSettings,
} from './repository.ts';

export const getGlobalSettings: Service<'globalSettings/getGlobalSettings'> = async (deps, _actor, _input) => {
  const row = await readGlobalSettings(deps.db);
  return row
    ? {
        settings: {
          nhsPrescriptionCharge: row.nhsPrescriptionCharge,
          inactiveAccountDays: row.inactiveAccountDays,
          supportSecondFactorRequired: row.supportSecondFactorRequired,
        },
        updated: row.updated,
      }
    : { settings: null, updated: null };
};

export const createOrUpdateGlobalSettings: Service<'globalSettings/createOrUpdateGlobalSettings'> = async (
  deps,
  actor,
  input,
) => {
  const now = deps.now();
  await deps.db.transaction().execute(async (tx) => {
    const before = await readGlobalSettings(tx);
    const inactiveAccountDays = input.inactiveAccountDays ?? before?.inactiveAccountDays ?? defaultInactiveAccountDays;
    // A database without the row requires support staff to have a second factor, as the column's default.
    const supportSecondFactorRequired =
      input.supportSecondFactorRequired ?? before?.supportSecondFactorRequired ?? true;
    await writeGlobalSettings(
      tx,
      { pence: input.nhsPrescriptionCharge, inactiveAccountDays, supportSecondFactorRequired },
      now,
      actor.userId,
    );
    const was = {
      supportSecondFactorRequired: before?.supportSecondFactorRequired ?? true,
      nhsPrescriptionCharge: before?.nhsPrescriptionCharge ?? null,
      inactiveAccountDays: before?.inactiveAccountDays ?? defaultInactiveAccountDays,
    };
    const is = { supportSecondFactorRequired, nhsPrescriptionCharge: input.nhsPrescriptionCharge, inactiveAccountDays };
    for (const field of ['supportSecondFactorRequired', 'nhsPrescriptionCharge', 'inactiveAccountDays'] as const) {
      await auditSettingChange(tx, deps, actor, field, was[field], is[field]);
    }
  });
  return getGlobalSettings(deps, actor, {});
};

/**
 * A global setting changed (the charge, the support staff's second factor…), audited with its old and new
 * values: none is a secret, and both make the entry useful.
 */
async function auditSettingChange(tx: Db, deps: AppDeps, actor: StaffActor, field: string, from: unknown, to: unknown) {
  if (from === to) return;
  await audit(tx, deps, actor, {
    action: 'globalSettings.update',
    entityType: 'globalSettings',
    details: { fields: [field], from, to },
  });
}

async function alarmTemplatesOf(db: Db) {
  const own = await readAlarmTemplates(db);
  const { templates, customised } = templatesOverDefaults(defaultAlarmMessages, alarmTemplateCodes, own);
  return { templates, defaults: { ...defaultAlarmMessages }, customised, placeholders: [...alarmPlaceholders] };
}

export const getAlarmMessageTemplates: Service<'globalSettings/getAlarmMessageTemplates'> = async (
  deps,
  _actor,
  _input,
) => {
  return alarmTemplatesOf(deps.db);
};

export const updateAlarmMessageTemplates: Service<'globalSettings/updateAlarmMessageTemplates'> = async (
  deps,
  actor,
  input,
) => {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    const before = await alarmTemplatesOf(tx);
    await deleteAlarmTemplates(tx, input.reset ?? []);
    for (const code of alarmTemplateCodes) {
      const body = input.templates[code];
      if (body !== undefined) await writeAlarmTemplate(tx, code, body, now);
    }
    const after = await alarmTemplatesOf(tx);
    const fields = changedPaths(before.templates, after.templates);
    if (fields.length > 0) {
      await audit(tx, deps, actor, {
        action: 'alarmMessageTemplates.update',
        entityType: 'alarmMessageTemplates',
        details: { fields },
      });
    }
    return after;
  });
};
