/**
 * The RPC bench's mode, from BENCH_MODE (bench/rpc/run.ts sets it from `--mode`): `production` runs the
 * api as production does (no output check against the contract) at an https address; anything else is
 * the test mode at http. The load, the sample request and the api agree on the origin through here.
 */
export const benchProduction = () => process.env.BENCH_MODE === 'production';

/** The api's address as the load names it in its Origin header. */
export const benchOrigin = () => (benchProduction() ? 'https://127.0.0.1' : 'http://127.0.0.1');

/**
 * The api's environment for the mode: in production mode with the variables production refuses to start
 * without (no mail is sent; the address is the load's origin).
 */
export function benchApiEnv(): Record<string, string> {
  return benchProduction()
    ? {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        PUBLIC_URL: benchOrigin(),
        SMTP_URL: 'smtp://127.0.0.1:2525',
        SECRETS_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
      }
    : { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: benchOrigin() };
}
