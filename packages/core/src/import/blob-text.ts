import type { CsvEncoding } from './text-encoding.ts';

type Event = 'data' | 'end' | 'error';
type Listener = (value?: unknown) => void;

/**
 * A Blob's text as papaparse reads a Node stream ('data', 'end', 'error' events), one piece of about
 * `pieceChars` characters each time `pull` is called: the parse pulls the next piece only once it has
 * handled the last, so the file is read no faster than its rows are used and memory stays flat.
 *
 * Why not hand papaparse the File: it reads a File in 1 MB byte slices and decodes each slice alone,
 * so a character whose UTF-8 bytes fall either side of a slice's end (é, ë, â, an emoji) became two
 * U+FFFD, silently. Here every byte goes through one streaming TextDecoder, which keeps the first
 * bytes of a split character until the rest arrive (and drops a byte order mark, as Excel's "CSV
 * UTF-8" starts with one).
 */
export class BlobText {
  /** Papaparse takes input with `readable`, `read` and `on` for a stream. */
  readonly readable = true;
  private readonly reader: ReadableStreamDefaultReader<string>;
  private readonly listeners: Record<Event, Listener[]> = { data: [], end: [], error: [] };
  private state: 'reading' | 'lastRead' | 'ended' = 'reading';

  constructor(
    blob: Blob,
    private readonly pieceChars: number,
    encoding: CsvEncoding = 'utf-8',
  ) {
    this.reader = blob.stream().pipeThrough(new TextDecoderStream(encoding)).getReader();
  }

  /** Hands on the next piece, or says 'end' once the text is all handed on. */
  async pull(): Promise<void> {
    if (this.state === 'ended') return;
    try {
      let piece = '';
      // At least one await before any event, so a piece never arrives while papaparse is still
      // inside the handler that pulled it.
      await undefined;
      while (this.state === 'reading' && piece.length < this.pieceChars) {
        const { done, value } = await this.reader.read();
        if (done) this.state = 'lastRead';
        else piece += value;
      }
      if (piece) this.emit('data', piece);
      else {
        this.state = 'ended';
        this.emit('end');
      }
    } catch (error) {
      this.state = 'ended';
      this.emit('error', error);
    }
  }

  /** Stops reading: the parse is over (aborted, failed or complete). */
  cancel(): void {
    this.state = 'ended';
    this.reader.cancel().catch(() => {});
  }

  on(event: Event, listener: Listener): this {
    this.listeners[event].push(listener);
    return this;
  }

  removeListener(event: Event, listener: Listener): this {
    this.listeners[event] = this.listeners[event].filter((l) => l !== listener);
    return this;
  }

  /** Papaparse's stream interface; reading is driven by `pull` instead. */
  read(): void {}
  pause(): void {}
  resume(): void {}

  private emit(event: Event, value?: unknown): void {
    for (const listener of [...this.listeners[event]]) listener(value);
  }
}
