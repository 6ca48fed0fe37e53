import { type } from 'arktype';
import { IntegrationClient } from '../settings/integration-client.ts';
import { Bool, Email, integerInRange, RequiredLine } from '../validation/general.ts';
import { reject, textInput } from '../validation/rule.ts';
import { Id, IdOrNull, stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, staff, supportOnly } from './define.ts';
import { byBusinessId, byId, withoutInput } from './method-builders.ts';
import { Ok } from './ok.ts';

/*
 * Integration clients (SPEC §3 Integration client, §4 integration secret, §7 integration): a
 * business's connection to its patient-record system, at most one per business. The client secret
 * is returned once by `generateClientSecret` and only its hash is kept; reads show it masked with a
 * leading '*'. The webhook signing secret is stored encrypted, shown in full once when made.
 * Known partners (pharmacy system suppliers) are kept by support to fill the form from.
 */

/**
 * Requests an integration client may make per hour. SPEC §9's unexplained range 200 to 3600 read as
 * this range: at most one request a second on average, at least enough for a busy pharmacy's day.
 */
export const integrationRateLimit = { min: 200, max: 3600, default: 1200, periodSeconds: 3600 } as const;

const isLoopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';

/**
 * A webhook URL: https, or http to this machine (a developer's receiver). The api also refuses http
 * in production.
 */
export const WebhookUrl = textInput('INVALID_FORMAT', undefined, stringLimits.url).narrow((s, ctx) => {
  if (!URL.canParse(s)) return reject(ctx, 'INVALID_FORMAT');
  const url = new URL(s);
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return true;
  return reject(ctx, 'INVALID_FORMAT', 'The webhook URL must start with https://');
});

/** A client's or partner's name: one line (it reaches mail and webhook bodies). */
const Name = upTo(stringLimits.name, RequiredLine);

/** A known pharmacy system supplier (SPEC §9). */
export const IntegrationPartner = type({
  id: 'string',
  name: 'string',
  contactEmail: 'string',
  suppressPatientMessages: 'boolean',
  created: 'number',
  updated: 'number',
});
export type IntegrationPartner = typeof IntegrationPartner.infer;

/** An integration client as read: `secret` and `webhookSecret` masked ('' / null when none yet). */
export const IntegrationClientView = IntegrationClient.merge({
  /** The known partner it was made from, if any. */
  partnerId: 'string | null',
  /** False until `generateClientSecret` has been called. */
  hasSecret: 'boolean',
});
export type IntegrationClientView = typeof IntegrationClientView.infer;

const PartnerFields = { name: Name, contactEmail: Email, suppressPatientMessages: Bool } as const;

const ClientResult = type({ client: IntegrationClientView.or('null'), archived: 'boolean' });

export const integration = defineArea({
  getIntegrationClient: byBusinessId({
    output: ClientResult,
    access: staff({ business: 'businessId' }, true),
    summary: "A business's integration client (secrets masked), or null.",
  }),
  createOrUpdateIntegrationClient: {
    input: type({
      businessId: Id,
      'partnerId?': IdOrNull,
      name: Name,
      contactEmail: Email,
      suppressPatientMessages: Bool,
      webhookUrl: WebhookUrl.or('null'),
      rateLimit: integerInRange(integrationRateLimit.min, integrationRateLimit.max),
      /** Only the masked value (or nothing) is accepted: secrets are generated, never chosen. */
      'secret?': upTo(stringLimits.credential),
      'webhookSecret?': upTo(stringLimits.credential),
    }),
    output: type({
      client: IntegrationClientView,
      /** The new webhook signing secret in full, when one was just made (on creation); else null. */
      webhookSecret: 'string | null',
    }),
    access: staff({ business: 'businessId' }, true),
    summary:
      "Creates the business's integration client or changes it; a masked secret sent back keeps the stored one. Rate limit: requests per hour, 200 to 3600.",
  },
  deleteIntegrationClient: byId({
    output: Ok,
    access: staff({ integrationClient: 'id' }, true),
    summary: 'Removes an integration client and its undelivered webhooks; its secret stops working.',
  }),
  generateClientSecret: byId({
    output: type({ secret: 'string' }),
    access: staff({ integrationClient: 'id' }, true),
    summary: 'Makes a new client secret and returns it once; the old one stops working.',
  }),
  generateWebhookSecret: byId({
    output: type({ webhookSecret: 'string' }),
    access: staff({ integrationClient: 'id' }, true),
    summary: 'Makes a new webhook signing secret and returns it once.',
  }),
  listIntegrationPartners: withoutInput({
    output: type({ partners: IntegrationPartner.array() }),
    access: staff('catalogue'),
    summary: 'The known integration partners, by name.',
  }),
  createIntegrationPartner: {
    input: type(PartnerFields),
    output: type({ partner: IntegrationPartner }),
    access: supportOnly,
    summary: 'Adds a known integration partner (name unique, case-insensitive).',
  },
  updateIntegrationPartner: {
    input: type({ id: Id, ...PartnerFields }),
    output: type({ partner: IntegrationPartner }),
    access: supportOnly,
    summary: 'Changes a known integration partner; clients made from it keep their own copy.',
  },
  deleteIntegrationPartner: byId({
    output: Ok,
    access: supportOnly,
    summary: 'Removes a known integration partner; refused (409) while a client was made from it.',
  }),
});
