/**
 * How a CSV's bytes are read. UTF-8 when every byte sequence is valid UTF-8 (with or without a byte
 * order mark: Excel's "CSV UTF-8", Google Sheets, LibreOffice, most systems); otherwise Windows-1252,
 * what Excel for Windows writes for plain "CSV (Comma delimited)" in the UK: there é is one byte that
 * is never valid UTF-8, and reading it as UTF-8 would turn every accented letter into U+FFFD.
 * Windows-1252 gives every byte a character, so nothing is refused and nothing is lost.
 */
export type CsvEncoding = 'utf-8' | 'windows-1252';

const known = new WeakMap<Blob, Promise<CsvEncoding>>();

/**
 * The encoding of a Blob (a File in the browser), read through once without keeping it; remembered per
 * Blob object (a File posted to a worker again arrives as a new one).
 */
export function encodingOfBlob(blob: Blob): Promise<CsvEncoding> {
  let found = known.get(blob);
  if (!found) {
    found = (async () => {
      const decoder = new TextDecoder('utf-8', { fatal: true });
      const reader = blob.stream().getReader();
      try {
        while (true) {
          const { done, value } = await reader.read();
          if (done) break;
          decoder.decode(value, { stream: true });
        }
        decoder.decode();
        return 'utf-8';
      } catch (error) {
        if (error instanceof TypeError) return 'windows-1252';
        throw error;
      } finally {
        reader.cancel().catch(() => {});
      }
    })();
    known.set(blob, found);
  }
  return found;
}

/** A file's bytes as text (the cli reads its file whole), in the encoding `encodingOfBlob` would choose. */
export function decodeCsvBytes(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}
