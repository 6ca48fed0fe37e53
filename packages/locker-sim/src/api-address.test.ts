import { describe, expect, it } from 'bun:test';
import { defaultApi } from './api-address.ts';

describe('the server the simulator talks to', () => {
  it('is MEDLOCKER_API when set, as for the CLI', () => {
    expect(defaultApi({ MEDLOCKER_API: 'https://medlocker.example.com' })).toBe('https://medlocker.example.com');
  });

  it('is the local server when MEDLOCKER_API is unset or blank', () => {
    expect(defaultApi({})).toBe('http://localhost:3000');
    expect(defaultApi({ MEDLOCKER_API: '  ' })).toBe('http://localhost:3000');
  });

  it('is MEDLOCKER_API for the command line when no --api is given', async () => {
    const run = Bun.spawn([process.execPath, `${import.meta.dir}/main.ts`, '--help'], {
      env: { ...process.env, MEDLOCKER_API: 'https://medlocker.example.com' },
      stdout: 'pipe',
    });
    const help = await new Response(run.stdout).text();
    await run.exited;
    expect(help).toContain('https://medlocker.example.com');
  }, 60_000);
});
