import { render, Text } from 'ink';
import type { CliIo } from '../context.ts';

const WIDTH = 30;

function Bar({ label, done, total }: { label: string; done: number; total: number }) {
  const ratio = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(ratio * WIDTH);
  return (
    <Text>
      {label} <Text color="green">{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(WIDTH - filled)}</Text> {Math.floor(ratio * 100)}% ({done}/{total} rows)
    </Text>
  );
}

export type Progress = { update(done: number): void; finish(done: number): void };

/**
 * An Ink progress bar on a terminal (on stderr, so stdout stays the result); plain lines every 10%
 * otherwise (a log file, CI); nothing with --json.
 */
export function progressOf(io: CliIo, label: string, total: number, json: boolean): Progress {
  if (json) return { update: () => {}, finish: () => {} };
  if (io.interactive) {
    const ink = render(<Bar label={label} done={0} total={total} />, { stdout: process.stderr, patchConsole: false });
    return {
      update: (done) => ink.rerender(<Bar label={label} done={done} total={total} />),
      finish: (done) => {
        ink.rerender(<Bar label={label} done={done} total={total} />);
        ink.unmount();
      },
    };
  }
  let shown = -1;
  const line = (done: number) => {
    const percent = total > 0 ? Math.floor((Math.min(done, total) / total) * 100) : 100;
    const step = Math.floor(percent / 10);
    if (step === shown) return;
    shown = step;
    io.stderr(`${label}: ${done}/${total} rows (${percent}%)\n`);
  };
  return { update: line, finish: line };
}
