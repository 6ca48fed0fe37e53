import {
  defaultSmsTemplatesIn,
  expiresIn,
  fixedPatientMessagesIn,
  type Locale,
  machineAndBusinessIn,
  type Order,
  type PatientMessageKey,
  patientMessageIn,
  renderTemplate,
  type SmsTemplateKey,
} from '@medlocker/core';
import { readSmsTemplates } from '../business-settings/index.ts';
import type { Db } from './mapping-repository.ts';

const isFixed = (key: PatientMessageKey, locale: Locale): key is keyof (typeof fixedPatientMessagesIn)['en'] =>
  key in fixedPatientMessagesIn[locale];

/**
 * A patient message's words in each of `locales`, joined first language first (bilingual: Welsh,
 * then English): the business's own wording of `key` in that language, else the product's default
 * in it (the fixed wording for messages with no template), with the order's values written the
 * language's way (Welsh month names in `${expires}`). `${pin}` and `${portal}` stay for the sender.
 */
export async function orderMessageBody(
  db: Db,
  order: Order,
  key: PatientMessageKey,
  business: { name: string; postcode: string | null } | undefined,
  locales: readonly Locale[],
): Promise<string> {
  const businessName = business?.name ?? order.businessName;
  const machineName = order.machineName ?? '';
  const own = new Map<Locale, Map<string, string>>();
  for (const locale of locales) own.set(locale, await readSmsTemplates(db, order.businessId, locale));
  return patientMessageIn(locales, (locale) => {
    const template = isFixed(key, locale)
      ? fixedPatientMessagesIn[locale][key]
      : (own.get(locale)?.get(key) ?? defaultSmsTemplatesIn[locale][key as SmsTemplateKey]);
    return renderTemplate(template, {
      businessName,
      machineName,
      machineAndBusiness: machineAndBusinessIn(locale, machineName, businessName),
      expires: order.expiresAt === null ? undefined : expiresIn(locale, order.expiresAt),
      // SPEC §9's postcode: the business's (where its lockers are; machines have none of their own).
      postcode: business?.postcode ?? undefined,
      temperature: undefined,
    });
  });
}
