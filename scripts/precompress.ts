import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const compressible = /\.(js|css|html|svg|json|txt)$/;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Every text file under `dir` gets a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside it,
 * made once at build time so the server picks one by Accept-Encoding without compressing per request.
 * A copy that would not be smaller is not written. Answers each file's name and the bytes it costs on
 * the wire (the smaller of the file and its brotli copy), for the builds' size lines.
 */
export async function precompress(dir: string): Promise<{ name: string; wire: number }[]> {
  const files: { name: string; wire: number }[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !compressible.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const raw = await readFile(path);
    const [br, gzipped] = await Promise.all([
      brotli(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }),
      gz(raw, { level: 9 }),
    ]);
    if (br.length < raw.length) await writeFile(`${path}.br`, br);
    if (gzipped.length < raw.length) await writeFile(`${path}.gz`, gzipped);
    files.push({ name: entry.name, wire: Math.min(raw.length, br.length) });
  }
  return files;
}
