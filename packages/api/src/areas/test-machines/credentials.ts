/**
 * Test machines' tokens are shown in the console (QA pastes them into locker-sim), so unlike real
 * lockers' they are kept, encrypted with AES-256-GCM. The key comes from TEST_MACHINE_KEY; without it
 * a fixed development key is used, which is fine for tokens of test machines only.
 */
const DEV_KEY = 'medlocker-test-machines-development-key';

let cached: { source: string; key: Promise<CryptoKey> } | undefined;

function key(): Promise<CryptoKey> {
  const source = process.env.TEST_MACHINE_KEY || DEV_KEY;
  if (cached?.source !== source) {
    cached = {
      source,
      key: crypto.subtle
        .digest('SHA-256', new TextEncoder().encode(source))
        .then((raw) => crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt'])),
    };
  }
  return cached.key;
}

export async function encryptToken(plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await key(), new TextEncoder().encode(plain));
  return `v1.${Buffer.from(iv).toString('base64url')}.${Buffer.from(sealed).toString('base64url')}`;
}

export async function decryptToken(stored: string): Promise<string> {
  const [version, iv, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !sealed) throw new Error('unreadable stored token');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: Buffer.from(iv, 'base64url') },
    await key(),
    Buffer.from(sealed, 'base64url'),
  );
  return new TextDecoder().decode(plain);
}
