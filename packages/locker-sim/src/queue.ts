import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LockerAction } from './protocol.ts';

/** A data-changing event waiting for the hub's answer. */
export type QueuedEvent = {
  action: LockerAction;
  payload: Record<string, unknown> & { eventId: string; seq: number; created: number };
};

type Line = { op: 'add'; event: QueuedEvent } | { op: 'ack'; eventId: string };

/**
 * The offline queue, kept on disk as JSON lines: an `add` line before an event is sent, an `ack` line
 * when its answer arrives. Reopening the file replays the lines, so a locker that restarts (or loses
 * power) sends again exactly what was never answered, in order. Compacted now and then by rewriting
 * only the pending events to a new file and renaming it over the old one (atomic on POSIX).
 */
export class DurableQueue {
  private readonly events = new Map<string, QueuedEvent>();
  private acksSinceCompaction = 0;

  private constructor(private readonly path: string | undefined) {}

  /** Opens (or creates) the queue at `path`; without a path it lives in memory only. */
  static open(path?: string): DurableQueue {
    const queue = new DurableQueue(path);
    if (path && existsSync(path)) {
      for (const text of readFileSync(path, 'utf8').split('\n')) {
        if (!text.trim()) continue;
        let line: Line;
        try {
          line = JSON.parse(text) as Line;
        } catch {
          continue; // a line torn by a power cut: the event was never sent, so nothing is lost
        }
        if (line.op === 'add') queue.events.set(line.event.payload.eventId, line.event);
        else queue.events.delete(line.eventId);
      }
    } else if (path) {
      mkdirSync(dirname(path), { recursive: true });
    }
    return queue;
  }

  /** Pending events in sequence order. */
  pending(): QueuedEvent[] {
    return [...this.events.values()].sort((a, b) => a.payload.seq - b.payload.seq);
  }

  get size(): number {
    return this.events.size;
  }

  append(event: QueuedEvent): void {
    this.events.set(event.payload.eventId, event);
    this.write({ op: 'add', event });
  }

  ack(eventId: string): void {
    if (!this.events.delete(eventId)) return;
    this.write({ op: 'ack', eventId });
    if (++this.acksSinceCompaction >= 500) this.compact();
  }

  compact(): void {
    this.acksSinceCompaction = 0;
    if (!this.path) return;
    const lines = this.pending().map((event) => `${JSON.stringify({ op: 'add', event } satisfies Line)}\n`);
    writeFileSync(`${this.path}.tmp`, lines.join(''));
    renameSync(`${this.path}.tmp`, this.path);
  }

  private write(line: Line): void {
    if (this.path) appendFileSync(this.path, `${JSON.stringify(line)}\n`);
  }
}
