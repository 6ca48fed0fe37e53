import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';
import { asSupport, listen, seedBusiness, TestLocker, withTestAuth } from '../../testing/hub.ts';
import { credentialsNotes } from './service.ts';

describeApi(
  'test machines',
  (t) => {
    it('are paired at once: the credentials in the answer open the hub, and are never stored in plain', async () => {
      await seedBusiness(t.db);
      const res = await t.call(
        'testMachines',
        'create',
        { businessId: 'b1', name: 'QA 1', numberOfSlots: 6 },
        asSupport,
      );
      expect(res.status).toBe(200);
      const tm = res.body.testMachine;
      expect(tm.machineId).toBe(tm.id);
      expect(tm.credentials.accessTokenExpires).toBeGreaterThan(t.deps.now());
      const stored = await t.db.selectFrom('machine_credentials').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(tm.credentials.accessToken);
      const again = await t.call('testMachines', 'get', { id: tm.id }, asSupport);
      expect(again.body.testMachine.credentials).toEqual(tm.credentials);
      const hub = listen(t);
      try {
        const locker = await TestLocker.connect(hub.url, tm.credentials.accessToken);
        await locker.boot();
        await locker.call('BagLoaded', {
          eventId: 'b',
          seq: 1,
          created: t.deps.now(),
          barcode: 'RX-1',
          location: 'A3',
        });
        const bags = await t.call('testMachines', 'getTestMachineBags', { id: tm.id }, asSupport);
        expect(bags.body.bags.map((b) => [b.barcode, b.location])).toEqual([['RX-1', 'A3']]);
        const listed = await t.call('bags', 'listBags', { businessId: 'b1', machineId: tm.id }, asSupport);
        expect(listed.body.bags).toHaveLength(1);
        // The contents search: the start of the barcode or the slot, in any case.
        for (const [filter, found] of [
          ['rx-', 1],
          ['a3', 1],
          ['RX-2', 0],
          ['%', 0],
        ] as const) {
          const res = await t.call('bags', 'listBags', { businessId: 'b1', machineId: tm.id, filter }, asSupport);
          expect([filter, res.body.bags.length]).toEqual([filter, found]);
        }
        await locker.call('BagRemoved', { eventId: 'c', seq: 2, created: t.deps.now(), barcode: 'RX-1' });
        expect((await t.call('testMachines', 'getTestMachineBags', { id: tm.id }, asSupport)).body.bags).toEqual([]);
        locker.close();
      } finally {
        hub.stop();
      }
    });

    it('are listed apart from real machines, updated, and removed with what they reported', async () => {
      await seedBusiness(t.db);
      const tm = (
        await t.call('testMachines', 'create', { businessId: 'b1', name: 'QA 1', numberOfSlots: 6 }, asSupport)
      ).body.testMachine;
      await t.call('machines', 'createMachine', { businessId: 'b1', name: 'Real', numberOfSlots: 6 }, asSupport);
      const list = await t.call('testMachines', 'list', { businessId: 'b1' }, asSupport);
      expect(list.body.testMachines.map((m) => m.name)).toEqual(['QA 1']);
      const machines = await t.call('machines', 'listMachines', { businessId: 'b1' }, asSupport);
      expect(machines.body.machines.map((m) => m.name)).toEqual(['Real']);
      const updated = await t.call('testMachines', 'update', { id: tm.id, name: 'QA 2', numberOfSlots: 9 }, asSupport);
      expect(updated.body.testMachine).toMatchObject({ name: 'QA 2', numberOfSlots: 9 });
      expect((await t.call('testMachines', 'remove', { id: tm.id }, asSupport)).body).toEqual({ ok: true });
      expect((await t.call('testMachines', 'get', { id: tm.id }, asSupport)).status).toBe(404);
    });

    const tokenPost = async (body: Record<string, string>) => {
      const res = await t.raw('/machine/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      });
      return (await res.json()) as { access_token: string; refresh_token: string; expires_at: number };
    };
    /** True when the token opens the hub and its locker boots. */
    const connects = async (url: string, token: string) => {
      try {
        const locker = await TestLocker.connect(url, token);
        const boot = await locker.boot();
        locker.close();
        return boot[0] === 3;
      } catch {
        return false;
      }
    };

    it('shows the tokens its locker refreshed, and reading it never cuts that locker off', async () => {
      await seedBusiness(t.db);
      const tm = (
        await t.call('testMachines', 'create', { businessId: 'b1', name: 'QA 1', numberOfSlots: 6 }, asSupport)
      ).body.testMachine;
      t.advance(60_000);
      const refreshed = await tokenPost({ grant_type: 'refresh_token', refresh_token: tm.credentials.refreshToken });
      const got = await t.call('testMachines', 'get', { id: tm.id }, asSupport);
      const listed = await t.call('testMachines', 'list', { businessId: 'b1' }, asSupport);
      const updated = await t.call('testMachines', 'update', { id: tm.id, name: 'QA 2', numberOfSlots: 6 }, asSupport);
      const expected = {
        accessToken: refreshed.access_token,
        accessTokenExpires: refreshed.expires_at,
        refreshToken: refreshed.refresh_token,
      };
      expect(got.body.testMachine).toMatchObject({ credentials: expected, credentialsNote: null });
      expect(listed.body.testMachines[0]?.credentials).toEqual(expected);
      expect(updated.body.testMachine.credentials).toEqual(expected);
      const hub = listen(t);
      try {
        expect(await connects(hub.url, refreshed.access_token)).toBe(true);
      } finally {
        hub.stop();
      }
    });

    it('shows the tokens of a locker paired through the Pair dialog, and reading it leaves them working', async () => {
      await seedBusiness(t.db);
      const tm = (
        await t.call('testMachines', 'create', { businessId: 'b1', name: 'QA 1', numberOfSlots: 6 }, asSupport)
      ).body.testMachine;
      const code = (await (await t.raw('/machine/device/code', { method: 'POST' })).json()) as {
        device_code: string;
        user_code: string;
      };
      const pair = await t.call(
        'auth' as never,
        'activateDeviceAuth' as never,
        { machineId: tm.id, userCode: code.user_code },
        asSupport,
      );
      expect(pair.status).toBe(200);
      const paired = await tokenPost({
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: code.device_code,
      });
      const got = await t.call('testMachines', 'get', { id: tm.id }, asSupport);
      expect(got.body.testMachine.credentials?.accessToken).toBe(paired.access_token);
      const hub = listen(t);
      try {
        expect(await connects(hub.url, paired.access_token)).toBe(true);
      } finally {
        hub.stop();
      }
    });

    it('shows no credentials, and issues none, when its live tokens have no kept copy', async () => {
      await seedBusiness(t.db);
      const tm = (
        await t.call('testMachines', 'create', { businessId: 'b1', name: 'QA 1', numberOfSlots: 6 }, asSupport)
      ).body.testMachine;
      // Tokens issued before every issue kept a sealed copy.
      await t.db
        .updateTable('machine_credentials')
        .set({ access_token_encrypted: null, refresh_token_encrypted: null })
        .execute();
      const got = await t.call('testMachines', 'get', { id: tm.id }, asSupport);
      expect(got.body.testMachine).toMatchObject({ credentials: null, credentialsNote: credentialsNotes.noCopy });
      const hub = listen(t);
      try {
        expect(await connects(hub.url, tm.credentials.accessToken)).toBe(true);
      } finally {
        hub.stop();
      }
    });

    it('has no credentials while archived, and new ones that connect once unarchived', async () => {
      await seedBusiness(t.db);
      const tm = (
        await t.call('testMachines', 'create', { businessId: 'b1', name: 'QA 1', numberOfSlots: 6 }, asSupport)
      ).body.testMachine;
      await t.call('machines', 'toggleArchive', { id: tm.id }, asSupport);
      const archived = await t.call('testMachines', 'get', { id: tm.id }, asSupport);
      expect(archived.body.testMachine).toMatchObject({
        credentials: null,
        credentialsNote: credentialsNotes.archived,
      });
      await t.call('machines', 'toggleArchive', { id: tm.id }, asSupport);
      const back = (await t.call('testMachines', 'get', { id: tm.id }, asSupport)).body.testMachine;
      const again = (await t.call('testMachines', 'get', { id: tm.id }, asSupport)).body.testMachine;
      expect(again.credentials).toEqual(back.credentials);
      const hub = listen(t);
      try {
        expect(await connects(hub.url, back.credentials?.accessToken ?? '')).toBe(true);
      } finally {
        hub.stop();
      }
    });

    it('refuses more slots than a machine can have with 400 for machines and test machines, changing nothing', async () => {
      await seedBusiness(t.db);
      const range = {
        path: 'numberOfSlots',
        id: 'INVALID_RANGE',
        message: 'Invalid range, value must be an integer between 1 and 1000',
      };
      // 2,147,483,648 does not fit the 32-bit column: it was a database error answered 500.
      const tooMany = 2_147_483_648;
      const created = await t.call(
        'machines',
        'createMachine',
        { businessId: 'b1', name: 'Big', numberOfSlots: tooMany },
        asSupport,
      );
      expect(created.status).toBe(400);
      expect(created.body.error.details).toEqual([range]);
      const tm = (await t.call('testMachines', 'create', { businessId: 'b1', name: 'QA', numberOfSlots: 6 }, asSupport))
        .body.testMachine;
      const updated = await t.call(
        'testMachines',
        'update',
        { id: tm.id, name: 'QA', numberOfSlots: String(tooMany) },
        asSupport,
      );
      expect(updated.status).toBe(400);
      expect(updated.body.error.details).toEqual([range]);
      const machine = await t.call(
        'machines',
        'updateMachine',
        { id: tm.id, name: 'QA', numberOfSlots: 1001 },
        asSupport,
      );
      expect(machine.status).toBe(400);
      const rows = await t.db.selectFrom('machines').select(['name', 'number_of_slots']).execute();
      expect(rows).toEqual([{ name: 'QA', number_of_slots: 6 }]);
    });
  },
  withTestAuth,
);
