import {
  AppError,
  type BusinessFeatureSettings,
  type ControlledSettings,
  controlledSettingKeys,
  defaultFeatureSettings,
  defaultSmsTemplatesIn,
  type Locale,
  type Nation,
  nationHasPrescriptionCharges,
  nationNames,
  nations,
  smsGateways,
  smsTemplateKeys,
  templatesOverDefaults,
} from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Service } from '../../context/method.ts';
import { changedPaths, overDefaults, refuseArchived } from './changes.ts';
import {
  countLiveChargedOrders,
  type Db,
  deleteSmsTemplates,
  findBusiness,
  readFeatureAndControlledJson,
  readSettingsJson,
  readSmsTemplates,
  type SettingsBusiness,
  writeSettingsJson,
  writeSmsTemplate,
} from './repository.ts';

/** A business that exists (404 otherwise). */
export async function requireBusiness(db: Db, id: string, lock = false) {
  const row = await findBusiness(db, id, lock);
  if (!row) throw new AppError('NOT_FOUND', `Business ${id} not found`);
  return row;
}

/**
 * The business locked for a settings change, refused when archived: the lock makes the check hold
 * until the change commits, so an archive cannot slip in between.
 */
export async function requireEditableBusiness(db: Db, id: string) {
  const row = await requireBusiness(db, id, true);
  refuseArchived(row);
  return row;
}

/**
 * Runs a change to one business in a transaction, at one moment `now`, with the business locked and
 * refused when archived (requireEditableBusiness); answers what the change answers.
 */
export function inEditableBusiness<T>(
  deps: AppDeps,
  businessId: string,
  change: (tx: Db, now: number, business: SettingsBusiness) => Promise<T>,
): Promise<T> {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => change(tx, now, await requireEditableBusiness(tx, businessId)));
}

/** Audits `businessSettings.<what>.update` on the business when the update changed any field. */
async function auditChanged(
  tx: Db,
  deps: AppDeps,
  actor: StaffActor,
  what: string,
  businessId: string,
  fields: string[],
) {
  if (fields.length === 0) return;
  await audit(tx, deps, actor, {
    action: `businessSettings.${what}.update`,
    entityType: 'business',
    entityId: businessId,
    businessId,
    details: { fields },
  });
}

const pickControlled = (s: BusinessFeatureSettings): ControlledSettings => ({
  smsGateway: s.smsGateway,
  enableWhatsApp: s.enableWhatsApp,
  qrCodeIntegration: s.qrCodeIntegration,
});

/**
 * A business's effective feature settings: defaults, then its feature jsonb, then its controlled jsonb.
 * Other areas (messaging, orders) read settings through this, so a default lives in one place.
 */
export async function effectiveFeatureSettings(db: Db, businessId: string) {
  const { feature, controlled } = await readFeatureAndControlledJson(db, businessId);
  const settings = overDefaults(defaultFeatureSettings, { ...feature?.settings, ...controlled?.settings });
  if (!(smsGateways as readonly string[]).includes(settings.smsGateway)) {
    settings.smsGateway = defaultFeatureSettings.smsGateway;
  }
  if (!(nations as readonly string[]).includes(settings.nation)) settings.nation = defaultFeatureSettings.nation;
  // No NHS prescription charge outside England, whatever an older row says.
  if (!nationHasPrescriptionCharges(settings.nation)) settings.charges = { enabled: false };
  if (settings.orderCollection.defaultCollectionWindow < 1) {
    settings.orderCollection.defaultCollectionWindow = defaultFeatureSettings.orderCollection.defaultCollectionWindow;
  }
  return {
    settings,
    featureUpdated: feature?.updated ?? null,
    controlledUpdated: controlled?.updated ?? null,
  };
}

export const getBusinessFeatureSettings: Service<'businessSettings/getBusinessFeatureSettings'> = async (
  deps,
  _actor,
  input,
) => {
  const { db } = deps;
  const business = await requireBusiness(db, input.businessId);
  const { settings, featureUpdated } = await effectiveFeatureSettings(db, input.businessId);
  return {
    businessId: business.id,
    settings,
    archived: business.archived,
    updated: featureUpdated,
    nhsLoginUnavailable: deps.config.nhsLogin ? null : nhsLoginNotConfigured,
  };
};

const nhsLoginNotConfigured =
  'NHS login is not configured on this server (NHS_LOGIN_ISSUER, NHS_LOGIN_CLIENT_ID, NHS_LOGIN_PRIVATE_KEY)';

/**
 * NHS login may be switched on only where the server has it configured and the business's display id is
 * the NHS number (its display id field validates NHS numbers): that is what a login is matched against.
 */
function checkNhsLogin(
  deps: AppDeps,
  before: BusinessFeatureSettings,
  input: In<'businessSettings/updateBusinessFeatureSettings'>['settings'],
): void {
  const on = input.nhsLogin?.enabled ?? before.nhsLogin.enabled;
  if (!on) return;
  const refuse = (path: string, message: string) => {
    throw new AppError('VALIDATION', message, [{ path, id: 'NOT_ENABLED', message }]);
  };
  // Only turning it on needs the configuration: a switch left on from before does not block other saves.
  if (input.nhsLogin?.enabled && !before.nhsLogin.enabled && !deps.config.nhsLogin)
    refuse('settings.nhsLogin.enabled', `${nhsLoginNotConfigured}: it cannot be switched on`);
  if (!(input.displayIdField ?? before.displayIdField).validateNhsNumber) {
    const message =
      'NHS login matches patients by NHS number: the display id must be validated as an NHS number while NHS login is on';
    refuse(input.displayIdField ? 'settings.displayIdField.validateNhsNumber' : 'settings.nhsLogin.enabled', message);
  }
}

export const updateBusinessFeatureSettings: Service<'businessSettings/updateBusinessFeatureSettings'> = async (
  deps,
  actor,
  input,
) => {
  await inEditableBusiness(deps, input.businessId, async (tx, now) => {
    const before = await effectiveFeatureSettings(tx, input.businessId);
    const stored = (await readSettingsJson(tx, 'business_feature_settings', input.businessId))?.settings ?? {};
    // Top-level keys given replace the stored ones; controlled keys never enter this row.
    const next: Record<string, unknown> = { ...stored, ...input.settings };
    for (const key of controlledSettingKeys) delete next[key];
    await applyNation(tx, input.businessId, before.settings.nation, input.settings, next);
    checkNhsLogin(deps, before.settings, input.settings);
    await writeSettingsJson(tx, 'business_feature_settings', input.businessId, next, now);
    const after = await effectiveFeatureSettings(tx, input.businessId);
    const fields = changedPaths(before.settings, after.settings);
    await auditChanged(tx, deps, actor, 'features', input.businessId, fields);
  });
  return getBusinessFeatureSettings(deps, actor, input);
};

/**
 * Where the pharmacy is decides whether prescription charges may be on: outside England there are
 * none, so charges are stored off and turning them on is refused (400 on the switch). Moving a business
 * out of England while live orders still ask a prescription charge is refused (409): those orders
 * would otherwise carry a charge that no longer exists; staff settle or cancel them first.
 */
async function applyNation(
  tx: Db,
  businessId: string,
  before: Nation,
  input: In<'businessSettings/updateBusinessFeatureSettings'>['settings'],
  next: Record<string, unknown>,
): Promise<void> {
  const nation = (input.nation ?? before) as Nation;
  if (nationHasPrescriptionCharges(nation)) return;
  if (input.charges?.enabled === true) {
    const message = `There are no NHS prescription charges in ${nationNames[nation]}: prescription charges cannot be switched on`;
    throw new AppError('VALIDATION', message, [{ path: 'settings.charges.enabled', id: 'NOT_ENABLED', message }]);
  }
  next.charges = { enabled: false };
  if (nation === before) return;
  const charged = await countLiveChargedOrders(tx, businessId);
  if (charged > 0) {
    const message = `${charged} live ${charged === 1 ? 'order still asks' : 'orders still ask'} a prescription charge: settle or cancel ${charged === 1 ? 'it' : 'them'} before moving the pharmacy to ${nationNames[nation]}`;
    throw new AppError('CONFLICT', message, [{ path: 'settings.nation', id: 'CHARGED_ORDERS', message }]);
  }
}

export const getBusinessControlledSettings: Service<'businessSettings/getBusinessControlledSettings'> = async (
  deps,
  _actor,
  input,
) => {
  const { db } = deps;
  const business = await requireBusiness(db, input.businessId);
  const { settings, controlledUpdated } = await effectiveFeatureSettings(db, input.businessId);
  return {
    businessId: business.id,
    settings: pickControlled(settings),
    archived: business.archived,
    updated: controlledUpdated,
  };
};

export const updateBusinessControlledSettings: Service<'businessSettings/updateBusinessControlledSettings'> = async (
  deps,
  actor,
  input,
) => {
  await inEditableBusiness(deps, input.businessId, async (tx, now) => {
    const before = pickControlled((await effectiveFeatureSettings(tx, input.businessId)).settings);
    const stored = (await readSettingsJson(tx, 'business_controlled_settings', input.businessId))?.settings ?? {};
    await writeSettingsJson(
      tx,
      'business_controlled_settings',
      input.businessId,
      { ...stored, ...input.settings },
      now,
    );
    const after = pickControlled((await effectiveFeatureSettings(tx, input.businessId)).settings);
    const fields = changedPaths(before, after);
    await auditChanged(tx, deps, actor, 'controlled', input.businessId, fields);
  });
  return getBusinessControlledSettings(deps, actor, input);
};

async function smsTemplatesOf(db: Db, business: SettingsBusiness, language: Locale) {
  const own = await readSmsTemplates(db, business.id, language);
  const defaults = defaultSmsTemplatesIn[language];
  const { templates, customised } = templatesOverDefaults(defaults, smsTemplateKeys, own);
  return {
    businessId: business.id,
    language,
    templates,
    defaults: { ...defaults },
    customised,
    archived: business.archived,
  };
}

export const getBusinessSmsTemplates: Service<'businessSettings/getBusinessSmsTemplates'> = async (
  deps,
  _actor,
  input,
) => {
  const business = await requireBusiness(deps.db, input.businessId);
  return smsTemplatesOf(deps.db, business, input.language ?? 'en');
};

export const updateBusinessSmsTemplates: Service<'businessSettings/updateBusinessSmsTemplates'> = async (
  deps,
  actor,
  input,
) => {
  return inEditableBusiness(deps, input.businessId, async (tx, now, business) => {
    const language = input.language ?? 'en';
    const before = await smsTemplatesOf(tx, business, language);
    await deleteSmsTemplates(tx, business.id, input.reset ?? [], language);
    for (const key of smsTemplateKeys) {
      const body = input.templates[key];
      if (body !== undefined) await writeSmsTemplate(tx, business.id, key, body, now, language);
    }
    const after = await smsTemplatesOf(tx, business, language);
    const fields = changedPaths(
      { templates: before.templates, customised: before.customised },
      { templates: after.templates, customised: after.customised },
    )
      .filter((p) => p.startsWith('templates.'))
      // A Welsh template's audit field names its language: templates.cy.orderReady.
      .map((p) => (language === 'en' ? p.slice('templates.'.length) : `${language}.${p.slice('templates.'.length)}`));
    await auditChanged(tx, deps, actor, 'smsTemplates', business.id, fields);
    return after;
  });
};
