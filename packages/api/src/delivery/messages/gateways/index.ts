import type { Config } from '../../../config/config.ts';
import { localMailboxOf, type Mailer } from '../../../mail/mailer.ts';
import { awsSmsGateway } from './aws-sms.ts';
import { emailGateway } from './email.ts';
import type { Gateway, ProviderName } from './gateway.ts';
import { messageBirdGateway } from './messagebird.ts';
import { smsWorksGateway } from './smsworks.ts';
import { whatsAppGateway } from './whatsapp.ts';

export { awsSmsGateway, emailGateway, messageBirdGateway, smsWorksGateway, whatsAppGateway };

/**
 * The gateways this process can use: each SMS and WhatsApp one whose credentials are configured, and
 * email through SMTP, or through the local mailbox outside production. In production without SMTP_URL
 * there is no email gateway, so a patient's email fails ("No email gateway is configured (SMTP_URL)")
 * instead of being recorded sent while it waits, PIN and all, in a mailbox support staff can read.
 * The sender picks the business's `smsGateway` among them.
 */
export function configuredGateways(config: Config, mailer: Mailer): Partial<Record<ProviderName, Gateway>> {
  const g = config.gateways;
  const out: Partial<Record<ProviderName, Gateway>> = {};
  if (!(config.production && localMailboxOf(mailer))) out.email = emailGateway(mailer);
  if (g.smsWorks.jwt) out.smsworks = smsWorksGateway({ jwt: g.smsWorks.jwt, apiUrl: g.smsWorks.apiUrl });
  if (g.messageBird.accessKey)
    out.messagebird = messageBirdGateway({ accessKey: g.messageBird.accessKey, apiUrl: g.messageBird.apiUrl });
  if (g.awsSms.region)
    out['aws-sms'] = awsSmsGateway({
      region: g.awsSms.region,
      ...(g.awsSms.endpoint ? { endpoint: g.awsSms.endpoint } : {}),
      ...(g.awsSms.configurationSet ? { configurationSet: g.awsSms.configurationSet } : {}),
    });
  if (g.whatsApp.token && g.whatsApp.phoneNumberId)
    out.whatsapp = whatsAppGateway({
      token: g.whatsApp.token,
      phoneNumberId: g.whatsApp.phoneNumberId,
      apiUrl: g.whatsApp.apiUrl,
    });
  return out;
}
