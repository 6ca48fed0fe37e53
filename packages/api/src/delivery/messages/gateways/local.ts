import type { Gateway } from './gateway.ts';

/**
 * The development gateway (DESIGN.md: "a dev gateway that records to the outbox"): used outside
 * production for a provider with no credentials, so the demo works without any. It sends nothing; the
 * sender records the message delivered (provider `local`) and says so on the order's timeline.
 */
export const localGateway: Gateway = {
  provider: 'local',
  send: async ({ reference }) => ({ provider: 'local', providerMessageId: `local:${reference}` }),
};
