import type { JobState } from '@medlocker/core';
import { t } from './i18n/index.ts';

export const stateLabel = (state: JobState) => t(`jobs.state.${state}` as const);
const stateTones: Record<JobState, string> = {
  waiting: 'info',
  failed: 'warn',
  running: 'info',
  dead: 'bad',
  done: 'ok',
};

export const jobStates = ['waiting', 'failed', 'running', 'dead', 'done'] as const;

export function StateBadge({ state }: { state: JobState }) {
  return <span className={`badge badge--${stateTones[state]}`}>{stateLabel(state)}</span>;
}
