import type { JobState } from '@medlocker/core';

export const stateLabels: Record<JobState, string> = {
  waiting: 'Waiting',
  failed: 'Failed',
  running: 'Running',
  dead: 'Dead',
  done: 'Done',
};
const stateTones: Record<JobState, string> = {
  waiting: 'info',
  failed: 'warn',
  running: 'info',
  dead: 'bad',
  done: 'ok',
};

export const jobStates = ['waiting', 'failed', 'running', 'dead', 'done'] as const;

export function StateBadge({ state }: { state: JobState }) {
  return <span className={`badge badge--${stateTones[state]}`}>{stateLabels[state]}</span>;
}
