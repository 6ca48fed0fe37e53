import { expect, it } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { describeApi } from '../../testing/api.ts';
import { dataUrl, jpegBytes, pngBytes, supportSession, testDataDir, validBusiness } from '../../testing/businesses.ts';

describeApi(
  'businesses',
  (t) => {
    it('creates a business with its rules applied: postcode and mobiles normalised', async () => {
      const { admin, as } = await supportSession(t);
      const res = await t.call('businesses', 'createBusiness', validBusiness(' Boots Leeds '), as);
      expect(res.status).toBe(200);
      expect(res.body.business).toMatchObject({
        name: 'Boots Leeds',
        email: 'leeds@boots.example',
        address: { line1: '1 Briggate', line2: null, line3: null, postTown: 'Leeds', postcode: 'LS1 6HD' },
        keyholdersMobileNumbers: ['+447700900123'],
        notificationEmails: ['alerts@boots.example'],
        groupId: null,
        archived: null,
        logo: null,
      });
      const got = await t.call('businesses', 'getBusiness', { id: res.body.business.id }, as);
      expect(got.body.business).toEqual(res.body.business);
      const [entry] = await listAudit(t.db, 'business.create');
      expect(entry?.actorUserId).toBe(admin.userId);
      expect(entry?.entityId).toBe(res.body.business.id);
    }, 30_000);

    it('reports every invalid field with its SPEC message', async () => {
      const { as } = await supportSession(t);
      const res = await t.call(
        'businesses',
        'createBusiness',
        {
          name: '  ',
          email: 'nope',
          address: { line1: '1 High St', postTown: 'Leeds', postcode: 'XX1' },
          notificationEmails: ['ok@example.com', 'bad'],
          keyholdersMobileNumbers: ['01132 496000'],
        },
        as,
      );
      expect(res.status).toBe(400);
      const byPath = Object.fromEntries(
        (res.body.error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]),
      );
      expect(byPath).toEqual({
        name: 'Please enter a value',
        email: 'Invalid email',
        'address.postcode': 'Invalid UK postcode',
        'notificationEmails.1': 'Invalid email',
        'keyholdersMobileNumbers.0': 'Invalid UK mobile number',
      });
    }, 30_000);

    it("refuses an id over 64 characters with SPEC §5's length message, as areas taking the shared Id do", async () => {
      const { as } = await supportSession(t);
      const tooLong = 'x'.repeat(65);
      const refused = {
        code: 'VALIDATION',
        message: 'Value must be at most 64 characters long',
        details: [{ path: 'id', id: 'INVALID_LENGTH', message: 'Value must be at most 64 characters long' }],
      };
      const answers = {
        'users/getUser': await t.call('users', 'getUser', { id: tooLong }, as),
        'businesses/getBusiness': await t.call('businesses', 'getBusiness', { id: tooLong }, as),
        'groups/getGroup': await t.call('groups', 'getGroup', { id: tooLong }, as),
      };
      for (const [method, res] of Object.entries(answers)) {
        expect([method, res.status, res.body.error]).toEqual([method, 400, refused]);
      }
    });

    it("refuses a search over 200 characters with SPEC §5's length message as the error's message too", async () => {
      const { as } = await supportSession(t);
      const tooLong = 'x'.repeat(201);
      const refused = (path: string) => ({
        code: 'VALIDATION',
        message: 'Value must be at most 200 characters long',
        details: [{ path, id: 'INVALID_LENGTH', message: 'Value must be at most 200 characters long' }],
      });
      const answers = {
        'businesses/listBusinesses': [
          await t.call('businesses', 'listBusinesses', { filterText: tooLong }, as),
          'filterText',
        ],
        'businesses/listBusinessesInfo': [
          await t.call('businesses', 'listBusinessesInfo', { filter: tooLong }, as),
          'filter',
        ],
        'groups/listGroups': [await t.call('groups', 'listGroups', { filter: tooLong }, as), 'filter'],
      } as const;
      for (const [method, [res, path]] of Object.entries(answers)) {
        expect([method, res.status, res.body.error]).toEqual([method, 400, refused(path)]);
      }
    });

    it('refuses a repeated email or mobile at the repeat, written either way', async () => {
      const { as } = await supportSession(t);
      const res = await t.call(
        'businesses',
        'createBusiness',
        validBusiness('Dupes', {
          notificationEmails: ['a@example.com', 'A@example.com'],
          keyholdersMobileNumbers: ['07700 900123', '+44 (0)7700-900123'],
        }),
        as,
      );
      expect(res.status).toBe(400);
      const details = [...res.body.error.details].sort((x, y) => x.path.localeCompare(y.path));
      expect(details).toEqual([
        {
          path: 'keyholdersMobileNumbers.1',
          id: 'DUPLICATE_ITEM',
          message: 'Item with value +447700900123 already exists',
        },
        { path: 'notificationEmails.1', id: 'DUPLICATE_ITEM', message: 'Item with value A@example.com already exists' },
      ]);
    }, 30_000);

    it('archives with who and when, refuses edits while archived, and unarchives', async () => {
      const { admin, as } = await supportSession(t);
      const { id } = (await t.call('businesses', 'createBusiness', validBusiness(), as)).body.business;
      t.advance(60_000);
      const archived = await t.call('businesses', 'archiveBusiness', { id }, as);
      expect(archived.body.business.archived).toEqual({
        at: t.deps.now(),
        userId: admin.userId,
        userDisplayName: 'Sam Support',
      });
      const again = await t.call('businesses', 'archiveBusiness', { id }, as);
      expect(again.body.business.archived).toEqual(archived.body.business.archived);

      const edit = await t.call('businesses', 'updateBusiness', { id, ...validBusiness('Renamed') }, as);
      expect(edit.status).toBe(409);
      expect(edit.body.error.message).toBe('The business Boots Leeds is archived: unarchive it before changing it');
      const logo = await t.call(
        'businesses',
        'uploadLogo',
        { entityId: id, dataUrl: dataUrl('image/png', pngBytes()) },
        as,
      );
      expect(logo.status).toBe(409);
      expect((await t.call('businesses', 'unlinkGroup', { id }, as)).status).toBe(409);
      const active = await t.call('businesses', 'listBusinesses', {}, as);
      expect(active.body.businesses).toEqual([]);
      const tab = await t.call('businesses', 'listBusinesses', { archived: true }, as);
      expect(tab.body.businesses.map((b) => b.id)).toEqual([id]);

      const back = await t.call('businesses', 'unarchiveBusiness', { id }, as);
      expect(back.body.business.archived).toBeNull();
      const renamed = await t.call('businesses', 'updateBusiness', { id, ...validBusiness('Renamed') }, as);
      expect(renamed.status).toBe(200);
      expect(renamed.body.business.name).toBe('Renamed');
      expect((await listAudit(t.db)).map((a) => a.action)).toEqual([
        'business.create',
        'business.archive',
        'business.unarchive',
        'business.update',
      ]);
      expect((await listAudit(t.db, 'business.update'))[0]?.details).toEqual({ changed: ['name'] });
    }, 30_000);

    it('searches for text anywhere in the name in any case, taking % and _ literally', async () => {
      const { as } = await supportSession(t);
      for (const name of ['Boots Leeds', 'boots York', 'Lloyds', '100% Pharmacy', '1000 Chemists'])
        await t.call('businesses', 'createBusiness', validBusiness(name), as);
      const names = async (filterText: string) =>
        (await t.call('businesses', 'listBusinesses', { filterText }, as)).body.businesses.map((b) => b.name);
      expect(await names('BOOTS')).toEqual(['Boots Leeds', 'boots York']);
      expect(await names('OOTS')).toEqual(['Boots Leeds', 'boots York']);
      expect(await names('ts y')).toEqual(['boots York']);
      expect(await names('100%')).toEqual(['100% Pharmacy']);
      expect(await names('%')).toEqual(['100% Pharmacy']);
      expect(await names('_')).toEqual([]);
      expect(await names('zzz')).toEqual([]);
      expect(await names('')).toHaveLength(5);
    }, 30_000);

    it('links businesses to a group, lists grouped and ungrouped ones, and unlinks', async () => {
      const { as } = await supportSession(t);
      const group = (await t.call('groups', 'createGroup', { name: 'North' }, as)).body.group;
      const other = (await t.call('groups', 'createGroup', { name: 'South' }, as)).body.group;
      const ids: string[] = [];
      for (const name of ['A', 'B', 'C'])
        ids.push((await t.call('businesses', 'createBusiness', validBusiness(name), as)).body.business.id);
      const [a, b, c] = ids as [string, string, string];
      const linked = await t.call('businesses', 'linkGroup', { groupId: group.id, businessIds: [a, b] }, as);
      expect(linked.body).toEqual({ linked: [a, b] });
      const ungrouped = await t.call('businesses', 'listUngroupedBusinesses', {}, as);
      expect(ungrouped.body.businesses.map((x) => x.id)).toEqual([c]);

      // Linking a business of another group is refused, and nothing of the request is done.
      const clash = await t.call('businesses', 'linkGroup', { groupId: other.id, businessIds: [c, a] }, as);
      expect(clash.status).toBe(409);
      expect(clash.body.error.details).toEqual([
        { path: 'businessIds.1', id: 'IN_ANOTHER_GROUP', message: 'The business A is in another group' },
      ]);
      expect((await t.call('businesses', 'getBusiness', { id: c }, as)).body.business.groupId).toBeNull();
      const missing = await t.call('businesses', 'linkGroup', { groupId: group.id, businessIds: ['nope'] }, as);
      expect(missing.status).toBe(404);

      await t.call('businesses', 'archiveBusiness', { id: b }, as);
      const grouped = await t.call('businesses', 'listGroupedBusinesses', { groupId: group.id }, as);
      expect(grouped.body.businesses.map((x) => x.id)).toEqual([a]);
      const withArchived = await t.call(
        'businesses',
        'listGroupedBusinesses',
        { groupId: group.id, archived: true },
        as,
      );
      expect(withArchived.body.businesses.map((x) => x.id)).toEqual([a, b]);
      const archivedBusiness = await t.call('businesses', 'linkGroup', { groupId: other.id, businessIds: [b] }, as);
      expect(archivedBusiness.status).toBe(409);

      const unlinked = await t.call('businesses', 'unlinkGroup', { id: a }, as);
      expect(unlinked.body.business.groupId).toBeNull();
      expect((await listAudit(t.db, 'business.unlinkGroup'))[0]?.details).toEqual({
        changed: ['groupId'],
        groupId: group.id,
      });
    }, 30_000);

    it('answers business info to holders of a role on it, and lists accessible businesses', async () => {
      const { as } = await supportSession(t);
      const mine = (await t.call('businesses', 'createBusiness', validBusiness('Mine'), as)).body.business;
      const theirs = (await t.call('businesses', 'createBusiness', validBusiness('Theirs'), as)).body.business;
      const pharmacist = await t.signIn({
        roles: [{ name: 'Business', resourceType: 'business', resourceId: mine.id }],
      });
      const own = { cookie: pharmacist.cookie };
      expect((await t.call('businesses', 'getBusinessInfo', { id: mine.id }, own)).body.business.name).toBe('Mine');
      // Another business is not found for them (the access declaration), their own is read in full.
      expect((await t.call('businesses', 'getBusinessInfo', { id: theirs.id }, own)).status).toBe(404);
      expect((await t.call('businesses', 'getBusiness', { id: mine.id }, own)).status).toBe(200);
      expect((await t.call('businesses', 'getBusiness', { id: theirs.id }, own)).status).toBe(404);
      const accessible = await t.call('businesses', 'listAccessibleBusinesses', {}, own);
      expect(accessible.body.businesses.map((b) => b.name)).toEqual(['Mine']);
      const all = await t.call('businesses', 'listAccessibleBusinesses', {}, as);
      expect(all.body.businesses.map((b) => b.name)).toEqual(['Mine', 'Theirs']);
    }, 30_000);

    it('stores a PNG or JPEG logo, serves it with its type and nosniff, and deletes it', async () => {
      const { as } = await supportSession(t);
      const { id } = (await t.call('businesses', 'createBusiness', validBusiness(), as)).body.business;
      const up = await t.call(
        'businesses',
        'uploadLogo',
        { entityId: id, dataUrl: dataUrl('image/jpeg', jpegBytes()) },
        as,
      );
      expect(up.status).toBe(200);
      expect(up.body.path).toMatch(/^\/files\/logos\/[0-9a-f-]{36}\.jpg$/);
      const served = await t.raw(up.body.path);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect([...new Uint8Array(await served.arrayBuffer())]).toEqual([...jpegBytes()]);

      const set = await t.call('businesses', 'updateLogo', { id, path: up.body.path, backgroundColor: '#112233' }, as);
      expect(set.body.business.logo).toEqual({ path: up.body.path, backgroundColor: '#112233' });
      const forged = await t.call('businesses', 'updateLogo', { id, path: '/etc/passwd', backgroundColor: '#fff' }, as);
      expect(forged.status).toBe(400);

      expect((await t.call('businesses', 'deleteLogo', { key: up.body.path }, as)).body).toEqual({ ok: true });
      expect((await t.raw(up.body.path)).status).toBe(404);
      expect((await t.call('businesses', 'getBusiness', { id }, as)).body.business.logo).toBeNull();
      expect((await t.call('businesses', 'deleteLogo', { key: up.body.path }, as)).status).toBe(404);
      expect((await t.call('businesses', 'deleteLogo', { key: '../../etc/passwd' }, as)).status).toBe(404);
      expect((await t.raw('/files/logos/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    }, 30_000);

    it('checks logos by content: a 300 KB PNG and a GIF refused, a PNG declared as JPEG kept as PNG', async () => {
      const { as } = await supportSession(t);
      const { id } = (await t.call('businesses', 'createBusiness', validBusiness(), as)).body.business;
      const upload = (url: string) => t.call('businesses', 'uploadLogo', { entityId: id, dataUrl: url }, as);

      const big = await upload(dataUrl('image/png', pngBytes(300 * 1024)));
      expect(big.status).toBe(400);
      expect(big.body.error.details).toEqual([
        {
          path: 'dataUrl',
          id: 'unacceptable-size',
          message: 'Only files under 256 KB are accepted, your file has 300 KB.',
        },
      ]);
      expect((await upload(dataUrl('image/png', pngBytes(262_144)))).status).toBe(200);

      const gif = await upload(dataUrl('image/gif', new TextEncoder().encode('GIF89a......')));
      expect(gif.body.error.details).toEqual([
        {
          path: 'dataUrl',
          id: 'unacceptable-extension',
          message: 'Only the following extensions are accepted: .jpg, .jpeg, .png',
        },
      ]);
      // A GIF declared as PNG: the bytes decide.
      const disguised = await upload(dataUrl('image/png', new TextEncoder().encode('GIF89a......')));
      expect(disguised.body.error.details[0].id).toBe('unacceptable-extension');

      const renamed = await upload(dataUrl('image/jpeg', pngBytes()));
      expect(renamed.status).toBe(200);
      expect(renamed.body.path).toEndWith('.png');
      expect((await t.raw(renamed.body.path)).headers.get('content-type')).toBe('image/png');

      expect((await upload('not a data url')).status).toBe(400);
      expect((await upload('data:image/png,rawbytes')).status).toBe(400);
    }, 30_000);

    it('lists only the businesses a signed-in user reaches: none without roles, every one for support', async () => {
      const { as } = await supportSession(t);
      await t.call('businesses', 'createBusiness', validBusiness('Someone Else'), as);
      const user = await t.signIn();
      const listed = await t.call('businesses', 'listBusinesses', {}, { cookie: user.cookie });
      expect(listed.status).toBe(200);
      expect(listed.body.businesses).toEqual([]);
      expect((await t.call('businesses', 'listBusinesses', {}, as)).body.businesses).toHaveLength(1);
      expect((await t.call('businesses', 'listBusinesses', {})).status).toBe(401);
    }, 30_000);
  },
  undefined,
  testDataDir(),
);
