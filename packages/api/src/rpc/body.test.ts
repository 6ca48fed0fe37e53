import { expect, it } from 'bun:test';
import { describeApi, TEST_ORIGIN } from '../testing/api.ts';

describeApi('request bodies', (t) => {
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    t.raw(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...headers },
      body,
    });

  it('answers a JSON body over 1 MB with 413, whether or not its length is declared', async () => {
    const big = JSON.stringify({ echo: 'x'.repeat(1_000_001) });
    const declared = await post('/api/health/ping', big);
    expect(declared.status).toBe(413);
    expect((await declared.json()).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    // Streamed without a Content-Length: counted as it is read.
    const stream = new Blob([big]).stream();
    const chunked = await t.raw('/api/health/ping', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
      body: stream,
    });
    expect(chunked.status).toBe(413);
  });

  it('stops reading a body with no length once it passes 1 MB, however long it would go on', async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
      },
    });
    const res = await t.raw('/api/health/ping', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
      body: endless,
    });
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(4 * 1024 * 1024);
  }, 20_000);

  it('counts the limit in bytes, so 1 MB of multi-byte text is too large too', async () => {
    const res = await post('/api/health/ping', JSON.stringify({ echo: 'é'.repeat(600_000) }));
    expect(res.status).toBe(413);
  });

  it('still takes a body just under the limit (a logo upload is about 350 KB)', async () => {
    const res = await post('/api/health/ping', JSON.stringify({ echo: 'ok', pad: 'x'.repeat(900_000) }));
    expect(res.status).not.toBe(413);
  });

  for (const [what, body] of [
    ['an array', '[]'],
    ['an array of an object', '[{"echo":"hi"}]'],
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"hello"'],
    ['true', 'true'],
  ] as const) {
    it(`refuses a body that is ${what} with 400 INVALID_FORMAT instead of reading it as {}`, async () => {
      for (const path of ['/api/health/ping', '/api/auth/config', '/api/auth/logout']) {
        const res = await post(path, body);
        expect(res.status).toBe(400);
        expect((await res.json()).error).toMatchObject({
          code: 'VALIDATION',
          details: [{ path: '', id: 'INVALID_FORMAT' }],
        });
      }
    });
  }

  it('still reads an empty body as {} for methods without input', async () => {
    const res = await post('/api/health/ping', '');
    expect(res.status).toBe(200);
  });
});
