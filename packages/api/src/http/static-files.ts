import { statSync } from 'node:fs';

/*
 * Sending built files (the console's and the patient page's): as they are, or their brotli/gzip copy
 * made at build time.
 */

type Encoding = 'br' | 'gzip';

/**
 * The encodings the client accepts, best first (brotli, then gzip); `q=0` refuses one. A missing
 * header means identity only (RFC 9110 §12.5.3 allows anything, but curl and probes send none).
 */
export function acceptedEncodings(header: string | null): Encoding[] {
  if (!header) return [];
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const ok = (name: Encoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).filter(ok);
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * A built file, or its brotli/gzip copy made at build time (`name.br`, `name.gz`) when the client
 * accepts it (`Vary: Accept-Encoding`). Shared with the patient page (patient-static.ts).
 */
export function sendFile(file: string, request: Request, set: { headers: Record<string, string | number> }) {
  set.headers.vary = 'Accept-Encoding';
  const type = Bun.file(file).type;
  for (const encoding of acceptedEncodings(request.headers.get('accept-encoding'))) {
    const copy = `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
    if (isFile(copy)) {
      set.headers['content-encoding'] = encoding;
      set.headers['content-type'] = type;
      return Bun.file(copy);
    }
  }
  set.headers['content-type'] = type;
  return Bun.file(file);
}
