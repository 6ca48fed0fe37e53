import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';

/**
 * Where a process id means one process: this kernel's boot and this PID namespace (Linux), as 8 hex
 * characters; undefined elsewhere. Two processes that see the same space see the same processes, so one
 * can tell for certain that the other has died (its pid is gone); containers on one host have a space
 * each, and machines differ by boot id, so a pid is never looked up where it means another process.
 */
export function pidSpace(): string | undefined {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const namespace = readlinkSync('/proc/self/ns/pid');
    if (!boot || !namespace) return undefined;
    return createHash('sha256').update(`${boot} ${namespace}`).digest('hex').slice(0, 8);
  } catch {
    return undefined;
  }
}

/** A runner's name in `locked_by`: host, pid, a random part, and its pid space where there is one. */
export function workerName(space = pidSpace()): string {
  const base = `${process.env.HOSTNAME ?? 'local'}:${process.pid}:${Bun.randomUUIDv7().slice(-8)}`;
  return space ? `${base}:${space}` : base;
}

/**
 * Of these `locked_by` names, those of runners in this pid space whose process is gone. A process that
 * exists (even one we may not signal, or a new one that took a dead runner's pid) counts as alive, and a
 * name from another space is never judged: its jobs wait for their lease to run out.
 */
export function goneWorkers(names: string[], space: string | undefined): string[] {
  if (!space) return [];
  return names.filter((name) => {
    const parts = name.split(':');
    if (parts.length < 4 || parts.at(-1) !== space) return false;
    const pid = Number(parts.at(-3));
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  });
}
