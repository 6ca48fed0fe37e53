import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, type FieldError, imageKindOf, imageUploadErrors, limits, validationMessage } from '@medlocker/core';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../deps.ts';

/**
 * Business and group logos on disk: `${dataDir}/files/logos/<random>.png|jpg`, served read-only at
 * `/files/logos/<name>`. The name is random (UUIDv7) and the extension follows the bytes, never the
 * declared type, so what is served is what was sniffed.
 */
export const logoUrlPrefix = '/files/logos/';

const namePattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg)$/;
const contentTypes = { png: 'image/png', jpg: 'image/jpeg' } as const;

export const logoDir = (deps: Pick<AppDeps, 'config'>): string => join(deps.config.dataDir, 'files', 'logos');

/** The stored name behind a logo path or name; undefined for anything that is not one of ours. */
export function logoNameOf(key: string): string | undefined {
  const name = key.startsWith(logoUrlPrefix) ? key.slice(logoUrlPrefix.length) : key;
  return namePattern.test(name) ? name : undefined;
}

const refuse = (details: FieldError[]): never => {
  throw new AppError('VALIDATION', details[0]?.message ?? 'Invalid logo', details);
};

const extensionRefusal = (): FieldError => ({
  path: 'dataUrl',
  id: 'unacceptable-extension',
  message: validationMessage.unacceptableExtension(limits.imageExtensions),
});

/**
 * Reads a `data:<type>;base64,<bytes>` URL and checks it as SPEC §5 says: the declared type must be
 * image/jpeg or image/png and the bytes at most 262144, and then the bytes themselves must start as a
 * JPEG or a PNG. A PNG declared image/jpeg (a renamed file) is accepted and stored as the PNG it is.
 */
export function readLogoDataUrl(dataUrl: string): { bytes: Uint8Array; extension: 'png' | 'jpg' } {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(dataUrl.trim());
  if (!match) {
    return refuse([{ path: 'dataUrl', id: 'INVALID_FORMAT', message: 'The logo must be sent as a data URL' }]);
  }
  const declared = (match[1] ?? '').trim().toLowerCase();
  const base64 = (match[3] ?? '').replace(/\s+/g, '');
  if (!(match[2] ?? '').toLowerCase().split(';').includes('base64') || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) {
    return refuse([{ path: 'dataUrl', id: 'INVALID_FORMAT', message: 'The logo data URL must be base64' }]);
  }
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  const problems = imageUploadErrors({ type: declared, size: bytes.length }, 'dataUrl');
  if (problems.length > 0) return refuse(problems);
  const kind = imageKindOf(bytes);
  if (kind === 'other') return refuse([extensionRefusal()]);
  return { bytes, extension: kind === 'png' ? 'png' : 'jpg' };
}

/** Writes a checked logo under a new random name; answers its path. */
export async function storeLogo(deps: Pick<AppDeps, 'config'>, dataUrl: string): Promise<string> {
  const { bytes, extension } = readLogoDataUrl(dataUrl);
  const dir = logoDir(deps);
  await mkdir(dir, { recursive: true });
  const name = `${Bun.randomUUIDv7()}.${extension}`;
  await writeFile(join(dir, name), bytes, { flag: 'wx', mode: 0o644 });
  return `${logoUrlPrefix}${name}`;
}

/** True when a path is a stored logo file. */
export async function logoExists(deps: Pick<AppDeps, 'config'>, path: string): Promise<boolean> {
  const name = logoNameOf(path);
  return name !== undefined && Bun.file(join(logoDir(deps), name)).exists();
}

/** Removes a stored logo file; false when there was none. */
export async function removeLogoFile(deps: Pick<AppDeps, 'config'>, name: string): Promise<boolean> {
  const file = join(logoDir(deps), name);
  if (!(await Bun.file(file).exists())) return false;
  await rm(file, { force: true });
  return true;
}

/**
 * `GET /files/logos/<name>`: the stored bytes with their sniffed type and nosniff. Logos are branding
 * shown wherever the business appears, behind unguessable names, so no session is asked for.
 */
export const logoFiles = (deps: AppDeps) =>
  new Elysia({ name: 'files:logos' }).get('/files/logos/:name', async ({ params, set }) => {
    const name = logoNameOf(params.name);
    if (!name) throw new AppError('NOT_FOUND', 'No such logo');
    let bytes: Buffer;
    try {
      bytes = await readFile(join(logoDir(deps), name));
    } catch {
      throw new AppError('NOT_FOUND', 'No such logo');
    }
    const extension = name.endsWith('.png') ? 'png' : 'jpg';
    set.headers['content-type'] = contentTypes[extension];
    set.headers['x-content-type-options'] = 'nosniff';
    set.headers['cache-control'] = 'public, max-age=31536000, immutable';
    set.headers['content-security-policy'] = "default-src 'none'";
    return new Response(new Uint8Array(bytes), { headers: set.headers as Record<string, string> });
  });
