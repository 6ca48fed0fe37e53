import { expect, it } from 'bun:test';
import { formatTable, runConformance } from '@medlocker/locker-sim';
import { describeApi } from '../../testing/api.ts';
import { listen, seedBusiness } from '../../testing/hub.ts';

/** `locker-sim conformance` against the product: every exchange docs/LOCKER-PROTOCOL.md documents. */
describeApi('the locker protocol conformance run', (t) => {
  it('passes every documented exchange against the product', async () => {
    await seedBusiness(t.db, 'b1');
    const staff = await t.signIn({ support: true });
    const hub = listen(t);
    try {
      const checks = await runConformance({ url: hub.http, token: staff.token, business: 'b1' });
      const failed = checks.filter((c) => !c.ok);
      if (failed.length > 0) console.log(formatTable(checks));
      expect(failed).toEqual([]);
      expect(checks.length).toBeGreaterThan(20);
    } finally {
      hub.stop();
    }
  }, 60_000);
});
