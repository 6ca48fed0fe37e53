// The locker protocol from core. Until core's index re-exports it, reach it by path: one line to change.
export * from '../../../core/src/protocol/index.ts';
