import { describe, expect, it } from 'bun:test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { actingToken, defaultApi, savedCliToken } from './api-address.ts';

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

describe('the session the simulator acts with', () => {
  const withSaved = async (sessions: Record<string, unknown>) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-credentials-'));
    mkdirSync(join(dir, 'medlocker'), { recursive: true });
    writeFileSync(join(dir, 'medlocker', 'credentials.json'), JSON.stringify({ sessions }));
    return { XDG_CONFIG_HOME: dir };
  };

  it('is --token, else MEDLOCKER_TOKEN, else the session `medlocker login` saved for that server', async () => {
    const env = await withSaved({ 'http://localhost:3000': { token: 'saved', email: 'qa@x', expires: 2_000 } });
    expect(await actingToken('http://localhost:3000', 'given', { ...env, MEDLOCKER_TOKEN: 'env' })).toBe('given');
    expect(await actingToken('http://localhost:3000', undefined, { ...env, MEDLOCKER_TOKEN: 'env' })).toBe('env');
    expect(await savedCliToken('http://localhost:3000/', env, 1_000)).toBe('saved');
    expect(await savedCliToken('http://localhost:4000', env, 1_000)).toBeUndefined();
    expect(await savedCliToken('http://localhost:3000', env, 3_000)).toBeUndefined();
    expect(await savedCliToken('http://localhost:3000', { XDG_CONFIG_HOME: '/nowhere' })).toBeUndefined();
  });
});
