import { expect, it } from 'bun:test';
import { authPolicy } from '../../sessions/policy.ts';
import { describeApi } from '../../testing/api.ts';
import { eventually, fastHub, listen } from '../../testing/hub.ts';

type Push = { action: string; params: Record<string, unknown> };

/** A console's `/ws` with a real session cookie: its pushes and, once closed, the close code. */
async function openConsole(url: string, cookie: string) {
  const pushes: Push[] = [];
  const ws = new WebSocket(`${url}/ws`, { headers: { cookie } } as never);
  ws.onmessage = (m) => pushes.push(JSON.parse(String(m.data)));
  const closed = new Promise<number>((resolve) => ws.addEventListener('close', (e) => resolve(e.code)));
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error('refused'));
  });
  return { ws, pushes, closed };
}

describeApi('the console hub and the sessions behind its sockets', (t) => {
  it('closes a console with 4401 when its session logs out, and leaves other consoles open', async () => {
    const sam = await t.signIn({ support: true, email: 'sam@medlocker.test' });
    const other = await t.signIn({ support: true, email: 'sam2@medlocker.test' });
    const hub = listen(t);
    try {
      const leaving = await openConsole(hub.url, sam.cookie);
      const staying = await openConsole(hub.url, other.cookie);
      expect((await t.call('auth', 'logout', {}, { cookie: sam.cookie })).status).toBe(200);
      expect(await leaving.closed).toBe(4401);
      staying.ws.send(JSON.stringify({ action: 'ping' }));
      await eventually(() => staying.pushes.some((p) => p.action === 'pong'));
      expect(staying.ws.readyState).toBe(WebSocket.OPEN);
      staying.ws.close();
    } finally {
      hub.stop();
    }
  });

  it('tells a console its access changed (switchBusiness), and closes it with 4403 when the Support role goes', async () => {
    const admin = await t.signIn({ support: true, email: 'admin@medlocker.test' });
    const kim = await t.signIn({ support: true, email: 'kim@medlocker.test' });
    const hub = listen(t);
    try {
      const socket = await openConsole(hub.url, kim.cookie);
      const added = await t.call(
        'auth',
        'addRoles',
        {
          addIdpByDefault: false,
          email: 'kim@medlocker.test',
          frontEnd: 'support',
          roles: [{ name: 'Developer', accessLevels: [] }],
        },
        { cookie: admin.cookie },
      );
      expect(added.status).toBe(200);
      await eventually(() => socket.pushes.some((p) => p.action === 'switchBusiness'));
      expect(socket.pushes.find((p) => p.action === 'switchBusiness')?.params).toEqual({ reason: 'accessChanged' });
      const removed = await t.call(
        'auth',
        'removeRole',
        { userId: kim.userId, roleName: 'Support', roleResource: null },
        { cookie: admin.cookie },
      );
      expect(removed.status).toBe(200);
      expect(await socket.closed).toBe(4403);
    } finally {
      hub.stop();
    }
  });

  it('closes a console whose session expired while it was open, without keeping an idle session alive', async () => {
    const lee = await t.signIn({ support: true, email: 'lee@medlocker.test' });
    const hub = listen(t, { ...fastHub, consoleSessionCheckEveryMs: 50 });
    try {
      const socket = await openConsole(hub.url, lee.cookie);
      // Checked every 50 ms meanwhile, the idle session must still run out.
      t.advance(authPolicy.sessionTouchAfterMs + 1);
      await Bun.sleep(200);
      // Past the idle expiry the session had before those checks: a check that touched it would have moved it.
      t.advance(authPolicy.sessionIdleMs - authPolicy.sessionTouchAfterMs);
      expect(await socket.closed).toBe(4401);
    } finally {
      hub.stop();
    }
  });
});
