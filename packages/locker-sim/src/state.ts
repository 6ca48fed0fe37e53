import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What a locker keeps across restarts: its tokens and its sequence counter. */
export type PersistedState = {
  machineId: string | null;
  accessToken: string | null;
  accessTokenExpires: number | null;
  refreshToken: string | null;
  /** The last sequence number used; never goes back. */
  seq: number;
  outOfOrder: boolean;
};

const empty = (): PersistedState => ({
  machineId: null,
  accessToken: null,
  accessTokenExpires: null,
  refreshToken: null,
  seq: 0,
  outOfOrder: false,
});

/** A locker's state in a JSON file, written whole to a temporary file then renamed (never half-written). */
export class StateFile {
  readonly value: PersistedState;

  constructor(private readonly path: string | undefined) {
    this.value = path && existsSync(path) ? { ...empty(), ...JSON.parse(readFileSync(path, 'utf8')) } : empty();
    if (path) mkdirSync(dirname(path), { recursive: true });
  }

  update(change: Partial<PersistedState>): void {
    Object.assign(this.value, change);
    if (!this.path) return;
    writeFileSync(`${this.path}.tmp`, JSON.stringify(this.value, null, 2));
    renameSync(`${this.path}.tmp`, this.path);
  }

  /** The next sequence number, saved before it is used. */
  nextSeq(): number {
    this.update({ seq: this.value.seq + 1 });
    return this.value.seq;
  }
}
