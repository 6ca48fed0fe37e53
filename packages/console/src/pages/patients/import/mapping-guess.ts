// The guess lives in core, shared with the cli's `patients import`.
export { guessMapping } from '@medlocker/core';
