// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the content of the messages.
import type { fixedPatientMessages } from '../settings/patient-messages.ts';
import type { SmsTemplateKey } from '../settings/sms-templates.ts';

/*
 * The patients' messages in Welsh: reviewed text, kept here beside the English defaults
 * (contract/business-settings.ts, settings/patient-messages.ts), never translated by machine at run
 * time. Plain wording in the NHS Wales manner; "archeb" (an order) is feminine, hence "ei chasglu".
 * Same placeholders as the English, and each passes the same checks (SPEC §5).
 */

/** The default wording of each business template in Welsh. */
export const welshSmsTemplates: Record<SmsTemplateKey, string> = {
  machineBackInOrder: "Mae ${machineAndBusiness} yn gweithio eto. Gallwch gasglu'ch archeb yno fel arfer.",
  machineOutOfOrder:
    'Nid yw ${machineAndBusiness} yn gweithio ar hyn o bryd. Cysylltwch â ${businessName} ynghylch casglu eich archeb.',
  orderReady:
    'Mae eich archeb gan ${businessName} yn barod yn ${machineName}. PIN: ${pin}. Casglwch hi erbyn ${expires}.',
  orderUpdated: 'Mae eich archeb gan ${businessName} wedi newid. PIN newydd: ${pin}. Casglwch hi erbyn ${expires}.',
  orderRemoved: 'Mae eich archeb wedi cael ei thynnu allan o ${machineAndBusiness}. Cysylltwch â ${businessName}.',
  orderExpiring: 'Mae eich archeb yn ${machineAndBusiness} yn dal i aros. Casglwch hi erbyn ${expires}.',
  paymentRequired: 'Mae angen talu am eich archeb gan ${businessName} cyn i chi ei chasglu. Talwch yma: ${portal}',
  orderCollected: 'Diolch am gasglu eich archeb o ${machineAndBusiness}.',
};

/** The fixed messages (no business template) in Welsh. */
export const welshFixedMessages: Record<keyof typeof fixedPatientMessages, string> = {
  orderExpired:
    'Ni chasglwyd eich archeb gan ${businessName} erbyn ${expires}, felly nid yw ei PIN yn gweithio mwyach. Cysylltwch â ${businessName}.',
  orderCancelled:
    'Mae eich archeb yn ${machineAndBusiness} wedi cael ei chanslo ac nid yw ei PIN yn gweithio mwyach. Cysylltwch â ${businessName} os oes gennych gwestiynau.',
  orderPinHeld:
    'Mae casglu eich archeb o ${machineAndBusiness} wedi ei oedi tra caiff ei gwirio. Byddwn yn rhoi gwybod i chi pan allwch ei chasglu.',
  orderPinReleased:
    "Newyddion da: gallwch gasglu eich archeb o ${machineAndBusiness} eto, gyda'r PIN a anfonwyd atoch, erbyn ${expires}.",
};

/**
 * The one-time codes sent to patients, in Welsh: a sign-up's code (text and email), the patient page's
 * "Anfonwch god ataf" text, the add-a-mobile text and the WhatsApp opt-in code ("cod" is masculine,
 * hence "amdano"). "Mae'n gweithio am ${minutes} munud" is the
 * patient page's own wording for a code's life; "munud" stays unmutated after 10 and 15, the lives the
 * codes have (after 2 it would be "funud").
 */
export const welshCodeMessages = {
  signUpSubject: 'Eich cod cofrestru ${productName}',
  signUpCode: "Eich cod cofrestru ${productName} yw ${code}. Mae'n gweithio am ${minutes} munud.",
  patientVerifyCode:
    "${code} yw eich cod ${productName} i weld eich archeb. Mae'n gweithio am ${minutes} munud. Peidiwch â'i rannu.",
  patientMobileCode:
    "${code} yw eich cod ${productName} i ychwanegu'r ffôn symudol hwn. Mae'n gweithio am ${minutes} munud. Peidiwch â'i rannu.",
  whatsAppOptInCode:
    "Eich cod ${businessName} i gael negeseuon eich fferyllfa ar WhatsApp yw ${code}. Mae'n gweithio am ${minutes} munud. Os na wnaethoch ofyn amdano, gallwch anwybyddu'r neges hon.",
};
