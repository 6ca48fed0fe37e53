import { describe, expect, it } from 'bun:test';
import type { Role } from '@medlocker/core';
import { administers } from './reach.ts';

const role = (name: Role['name'], resource: string, admin: boolean): Role => ({
  name,
  resource,
  resourceType: name === 'Group' ? 'group' : 'business',
  resourceName: resource,
  accessLevels: admin ? ['Admin'] : [],
  description: '',
});

describe('administers', () => {
  const business = { kind: 'business', id: 'b1', groupId: 'g1' } as const;
  it('gives Admin on a business through a Business role with Admin on it, and not without Admin', () => {
    expect(administers([role('Business', 'b1', true)], business)).toBe(true);
    expect(administers([role('Business', 'b1', false)], business)).toBe(false);
    expect(administers([role('Business', 'b2', true)], business)).toBe(false);
  });
  it("gives Admin on a group and its businesses through a Group role with Admin, not on another group's", () => {
    expect(administers([role('Group', 'g1', true)], business)).toBe(true);
    expect(administers([role('Group', 'g1', true)], { kind: 'group', id: 'g1' })).toBe(true);
    expect(administers([role('Group', 'g2', true)], business)).toBe(false);
    expect(administers([role('Group', 'g1', true)], { ...business, groupId: null })).toBe(false);
    expect(administers([role('Business', 'b1', true)], { kind: 'group', id: 'g1' })).toBe(false);
  });
});
