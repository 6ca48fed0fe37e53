// Core's RPC client file alone, not core's index: the index brings the contract's validators
// (arktype), which the sign-in page has no use for and which would outweigh it many times over.
import { ApiError, createRpcClient } from '../../../core/src/contract/client.ts';
import { t } from '../i18n/layer.ts';

export { ApiError };

/** The product's name (SPEC `{product}`): MedLocker until auth.config has answered. */
let productName = 'MedLocker';

/**
 * The sign-in page's RPC calls: core's one typed client, as the console's (api/client.ts), with the
 * same unreachable-server sentence.
 */
export const client = createRpcClient({
  baseUrl: '',
  credentials: 'same-origin',
  unreachableMessage: () => t('api.serverUnreachable', { product: productName }),
});

export const rpc = client.call;

export type ConsoleConfig = { allowRegistration: boolean; productName: string };

/** auth.config, or the defaults when it cannot be read (as the console). */
export async function loadConfig(): Promise<ConsoleConfig> {
  try {
    const config = await rpc('auth', 'config');
    productName = config.productName;
    return config;
  } catch {
    return { allowRegistration: false, productName };
  }
}

/** Any thrown value as a sentence a person can read (api/client.ts messageOf). */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.formMessage;
  if (error instanceof Error) return error.message;
  return t('api.unknownError');
}

/** A refusal's messages: per field when the server names fields, else one for the form. */
export function errorsOf(error: unknown): { fields: Record<string, string>; form?: string } {
  if (error instanceof ApiError && error.details.some((d) => d.path)) return { fields: error.fieldErrors };
  return { fields: {}, form: messageOf(error) };
}
