import type { AppDeps } from '../../context/deps.ts';
import { sealingContexts } from '../../secrets/sealed-columns.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';

/** The sealing context of a client's webhook secret: a sealed secret opens only as that client's. */
const webhookContext = sealingContexts.webhookSecret;

/** A client's webhook signing secret, sealed for `integration_clients.webhook_secret_encrypted`. */
export const sealWebhookSecret = (deps: Pick<AppDeps, 'config'>, clientId: string, secret: string): string =>
  createSecretBox(deps.config.secretsKey).seal(secret, webhookContext(clientId));

/**
 * A sealed webhook secret of the client in the clear: the current one or, during a rotation, the previous
 * one (sealed alike: a rotation moves the sealed value to `webhook_secret_previous_encrypted` as it is).
 */
export const openSealedWebhookSecret = (deps: Pick<AppDeps, 'config'>, clientId: string, sealed: string): string =>
  createSecretBox(deps.config.secretsKey).open(sealed, webhookContext(clientId));
