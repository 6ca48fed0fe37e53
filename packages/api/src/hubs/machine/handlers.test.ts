import { describe, expect, it } from 'bun:test';
import { lockerActionNames } from '@medlocker/core';
import { type Handlers, lockerHandlers } from './handlers.ts';

describe('locker action handlers', () => {
  it('has one handler for every action of the protocol', () => {
    expect(Object.keys(lockerHandlers).sort()).toEqual([...lockerActionNames].sort());
  });

  it('does not compile when an action has no handler', () => {
    const { VerifyPin: _left, ...withoutOne } = lockerHandlers;
    // @ts-expect-error VerifyPin is missing: a map without every action's handler is a type error.
    const incomplete: Handlers = withoutOne;
    expect(Object.keys(incomplete)).not.toContain('VerifyPin');
  });
});
