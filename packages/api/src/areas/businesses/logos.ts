import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, type FieldError, imageKindOf, imageUploadErrors, limits, validationMessage } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';

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

/** A stored logo's bytes and content type by its file name; undefined for a name that is not a logo's or is gone. */
export async function readLogo(
  deps: Pick<AppDeps, 'config'>,
  fileName: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string } | undefined> {
  const name = logoNameOf(fileName);
  if (!name) return undefined;
  try {
    const bytes = new Uint8Array(await readFile(join(logoDir(deps), name)));
    return { bytes, contentType: contentTypes[name.endsWith('.png') ? 'png' : 'jpg'] };
  } catch {
    return undefined;
  }
}
