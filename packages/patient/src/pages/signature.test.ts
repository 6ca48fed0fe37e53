import { expect, it } from 'bun:test';
import { signatureMaxBytes as coreMax } from '@medlocker/core';
import { dataUrlBytes, signatureMaxBytes } from './SignaturePad.tsx';

it('keeps a signature within the server’s limit, counting the bytes a data URL decodes to', () => {
  expect(signatureMaxBytes).toBe(coreMax);
  for (const bytes of [1, 2, 3, 4, 100, 65_536]) {
    const url = `data:image/png;base64,${Buffer.alloc(bytes, 7).toString('base64')}`;
    expect([bytes, dataUrlBytes(url)]).toEqual([bytes, bytes]);
  }
});
