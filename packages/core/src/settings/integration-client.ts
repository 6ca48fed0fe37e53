import { type } from 'arktype';
import { businessOwned, stamps, Timestamp } from '../stamps.ts';

/**
 * A third-party patient-record system connected to a business (SPEC §3). `secret` is shown in full
 * once after it is generated, then masked with a leading '*'. `rateLimit` counts requests per period.
 */
export const IntegrationClient = type({
  ...businessOwned,
  name: 'string',
  contactEmail: 'string',
  suppressPatientMessages: 'boolean',
  webhookUrl: 'string | null',
  secret: 'string',
  webhookSecret: 'string | null',
  rateLimit: { rateLimit: 'number.integer > 0', periodStart: Timestamp, requestsMade: 'number.integer >= 0' },
  ...stamps,
});
export type IntegrationClient = typeof IntegrationClient.infer;

/** True when a secret is the masked form the api returns, which must not be saved back as a secret. */
export const isMaskedSecret = (secret: string): boolean => secret.startsWith('*');
