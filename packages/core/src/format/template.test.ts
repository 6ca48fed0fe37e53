import { describe, expect, it } from 'bun:test';
import { templatesOverDefaults } from './template.ts';

describe('templatesOverDefaults', () => {
  it('puts each stored body over its default and names the keys that have their own, ignoring unknown ones', () => {
    const defaults = { ready: 'Your order is ready', removed: 'Your order was removed' };
    const own = new Map([
      ['removed', 'Taken out of the locker'],
      ['retired', 'a key no longer offered'],
    ]);
    expect(templatesOverDefaults(defaults, ['ready', 'removed'], own)).toEqual({
      templates: { ready: 'Your order is ready', removed: 'Taken out of the locker' },
      customised: ['removed'],
    });
    expect(defaults.removed).toBe('Your order was removed');
  });
});
