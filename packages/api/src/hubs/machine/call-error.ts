import type { ErrorFrame } from '@medlocker/core';

/** A failure to answer with an error frame rather than a crash. */
export class CallError extends Error {
  constructor(readonly frame: ErrorFrame) {
    super(frame[3]);
  }
}
