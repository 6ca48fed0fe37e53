/**
 * Every place a secret is kept sealed (secrets/secret-box.ts), with the context each is sealed under:
 * the areas seal and open with these contexts, and the re-seal job (secrets/reseal.ts) walks this list,
 * so a sealed column added without an entry here is one a key rotation would leave behind (the rotation
 * test seals a value in each and checks none is left under the old key).
 */
export type SealedColumn = {
  /** For logs: what the values are. */
  name: string;
  table: string;
  /** The row's key, for reading in order and writing back. */
  id: string;
  /** The column whose value the context names (the row's own id or its owner's). */
  ref: string;
  /** The column, or `column->>'field'` of a jsonb column's field. */
  column: string;
  jsonField?: string;
  context: (ref: string) => string;
  /** An order's PIN: its lookup is keyed again with it (areas/orders/pin.ts). */
  pinLookup?: true;
};

const paymentToken = (businessId: string) => `payment_settings.judo_token:${businessId}`;
const paymentSecret = (businessId: string) => `payment_settings.judo_secret:${businessId}`;
const webhookSecret = (clientId: string) => `integration_clients.webhook_secret:${clientId}`;
const machineToken = (machineId: string) => `machine_credentials.token:${machineId}`;
const identityProviderSecret = (idpId: string) => `identity_providers.client_secret:${idpId}`;
const cliSessionToken = (signInId: string) => `cli_sign_ins.token:${signInId}`;
const orderPin = (orderId: string) => `orders.pin:${orderId}`;
const totpSecret = (factorId: string) => `second_factors.totp_secret:${factorId}`;
const qrSigningKey = (businessId: string) => `qr_signing_keys.key:${businessId}`;

/** The contexts, by what is sealed: the one place each is spelled. */
export const sealingContexts = {
  paymentToken,
  paymentSecret,
  webhookSecret,
  machineToken,
  identityProviderSecret,
  cliSessionToken,
  orderPin,
  totpSecret,
  qrSigningKey,
} as const;

export const sealedColumns: readonly SealedColumn[] = [
  {
    name: 'card payment tokens',
    table: 'payment_settings',
    id: 'business_id',
    ref: 'business_id',
    column: 'judo_token_encrypted',
    context: paymentToken,
  },
  {
    name: 'card payment secrets',
    table: 'payment_settings',
    id: 'business_id',
    ref: 'business_id',
    column: 'judo_secret_encrypted',
    context: paymentSecret,
  },
  {
    name: 'webhook secrets',
    table: 'integration_clients',
    id: 'id',
    ref: 'id',
    column: 'webhook_secret_encrypted',
    context: webhookSecret,
  },
  {
    name: 'previous webhook secrets',
    table: 'integration_clients',
    id: 'id',
    ref: 'id',
    column: 'webhook_secret_previous_encrypted',
    context: webhookSecret,
  },
  {
    name: 'test machines’ access tokens',
    table: 'machine_credentials',
    id: 'id',
    ref: 'machine_id',
    column: 'access_token_encrypted',
    context: machineToken,
  },
  {
    name: 'test machines’ refresh tokens',
    table: 'machine_credentials',
    id: 'id',
    ref: 'machine_id',
    column: 'refresh_token_encrypted',
    context: machineToken,
  },
  {
    name: 'identity providers’ client secrets',
    table: 'identity_providers',
    id: 'id',
    ref: 'id',
    column: 'configuration',
    jsonField: 'clientSecretSealed',
    context: identityProviderSecret,
  },
  {
    name: 'command-line sign-in tokens',
    table: 'cli_sign_ins',
    id: 'id',
    ref: 'id',
    column: 'token_sealed',
    context: cliSessionToken,
  },
  { name: 'order PINs', table: 'orders', id: 'id', ref: 'id', column: 'pin', context: orderPin, pinLookup: true },
  {
    name: 'authenticator-app secrets',
    table: 'second_factors',
    id: 'id',
    ref: 'id',
    column: 'totp_secret',
    context: totpSecret,
  },
  {
    name: 'QR signing keys',
    table: 'qr_signing_keys',
    id: 'business_id',
    ref: 'business_id',
    column: 'key_sealed',
    context: qrSigningKey,
  },
];
