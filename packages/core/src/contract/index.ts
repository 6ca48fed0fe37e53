import { health } from './health.ts';

/**
 * The RPC contract: area → method → input, output and access. `POST /api/{area}/{method}`.
 * The api validates with it, the console and cli are typed by it, the OpenAPI page is made from it.
 */
export const contract = {
  health,
} as const;

export type Contract = typeof contract;
export type AreaName = keyof Contract;
export * from './define.ts';
