import { connecting, framesAndErrors, hubCalls, offlineReplay } from './connection.ts';
import { collectingAnOrder, dataEvents } from './events.ts';
import { archiving, pairing, refresh, staffMachine } from './pairing.ts';
import { type Check, type ConformanceOptions, Run } from './run.ts';

export type { Check, ConformanceOptions };

/**
 * Runs the sections in the order a locker lives them: paired, connected, booted, sending events,
 * offline and back, called by the hub, refreshed, archived. Each section leaves on the run what the
 * next needs (the machine, its tokens, the open connection).
 */
export async function runConformance(options: ConformanceOptions): Promise<Check[]> {
  const run = new Run(options);
  await staffMachine(run);
  await pairing(run);
  await connecting(run);
  await framesAndErrors(run);
  const loaded = await dataEvents(run);
  await collectingAnOrder(run);
  await offlineReplay(run, loaded);
  await hubCalls(run);
  await refresh(run);
  await archiving(run);
  return run.checks;
}

/** The pass/fail table. */
export function formatTable(checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.section.length + c.name.length + 3));
  const lines = checks.map((c) => {
    const label = `${c.section} · ${c.name}`.padEnd(width);
    return `${c.ok ? 'pass' : 'FAIL'}  ${label}${c.ok ? '' : `  ${c.detail ?? ''}`}`;
  });
  const failed = checks.filter((c) => !c.ok).length;
  lines.push('', failed === 0 ? `all ${checks.length} checks passed` : `${failed} of ${checks.length} checks failed`);
  return lines.join('\n');
}
