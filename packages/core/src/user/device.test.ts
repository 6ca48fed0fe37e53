import { expect, test } from 'bun:test';
import { deviceOf } from './device.ts';

test('names the browser and system of common user agents', () => {
  expect(
    deviceOf(
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ),
  ).toBe('Chrome on Windows');
  expect(
    deviceOf(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    ),
  ).toBe('Safari on iPhone');
  expect(deviceOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
    'Firefox on macOS',
  );
  expect(
    deviceOf(
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    ),
  ).toBe('Edge on Windows');
  expect(
    deviceOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'),
  ).toBe('Chrome on Linux');
  expect(deviceOf(null)).toBe('Unknown device');
  expect(deviceOf('something else')).toBe('Unknown device');
});
