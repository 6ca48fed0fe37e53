import { afterEach, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DurableQueue, type QueuedEvent } from './queue.ts';
import { StateFile } from './state.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'locker-sim-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const event = (seq: number): QueuedEvent => ({
  action: 'MachineEvent',
  payload: { eventId: `e${seq}`, seq, created: seq, code: 'EM_0017' },
});

describe('the offline queue', () => {
  it('keeps unanswered events across a restart, in sequence order', () => {
    const path = join(tempDir(), 'q.jsonl');
    const q = DurableQueue.open(path);
    for (const seq of [1, 2, 3, 4]) q.append(event(seq));
    q.ack('e2');
    const reopened = DurableQueue.open(path);
    expect(reopened.pending().map((e) => e.payload.seq)).toEqual([1, 3, 4]);
    reopened.compact();
    expect(
      DurableQueue.open(path)
        .pending()
        .map((e) => e.payload.seq),
    ).toEqual([1, 3, 4]);
  });

  it('ignores a line torn by a power cut', async () => {
    const path = join(tempDir(), 'q.jsonl');
    DurableQueue.open(path).append(event(1));
    await Bun.write(path, `${await Bun.file(path).text()}{"op":"add","ev`);
    expect(DurableQueue.open(path).pending()).toHaveLength(1);
  });

  it('never hands out a sequence number twice, even after a restart', () => {
    const path = join(tempDir(), 'state.json');
    const state = new StateFile(path);
    expect([state.nextSeq(), state.nextSeq()]).toEqual([1, 2]);
    expect(new StateFile(path).nextSeq()).toBe(3);
  });
});
