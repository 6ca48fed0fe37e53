import { describe, expect, it } from 'bun:test';
import { businessIdInPath, pickCurrent, switchedPath } from './current-business.ts';

const a = { id: 'b_a' };
const b = { id: 'b_b' };

describe('businessIdInPath', () => {
  it("reads the business of a business's page, encoded or not", () => {
    expect(businessIdInPath('/businesses/b_a/orders/o_1')).toBe('b_a');
    expect(businessIdInPath('/businesses/b%20x')).toBe('b x');
  });

  it('finds none on the list, the add page or elsewhere', () => {
    expect(businessIdInPath('/businesses')).toBeNull();
    expect(businessIdInPath('/businesses/add')).toBeNull();
    expect(businessIdInPath('/')).toBeNull();
    expect(businessIdInPath('/groups/g_1/businesses/b_a')).toBeNull();
  });
});

describe('pickCurrent', () => {
  it('follows the address over the last chosen', () => {
    expect(pickCurrent([a, b], 'b_b', 'b_a')).toBe(b);
  });

  it('takes the last chosen when the address names none the user reaches', () => {
    expect(pickCurrent([a, b], null, 'b_b')).toBe(b);
    expect(pickCurrent([a, b], 'b_other', 'b_b')).toBe(b);
  });

  it('falls back to the first, and to none without businesses', () => {
    expect(pickCurrent([a, b], null, 'b_gone')).toBe(a);
    expect(pickCurrent([], null, null)).toBeNull();
  });
});

describe('switchedPath', () => {
  it("keeps the section but not the item open in it (another business's order is not there)", () => {
    expect(switchedPath('/businesses/b_a/orders/o_1', 'b_b')).toBe('/businesses/b_b/orders');
    expect(switchedPath('/businesses/b_a/settings/payment', 'b_b')).toBe('/businesses/b_b/settings');
    expect(switchedPath('/businesses/b_a', 'b_b')).toBe('/businesses/b_b');
  });

  it('leaves pages that are no business’s where they are', () => {
    expect(switchedPath('/', 'b_b')).toBeNull();
    expect(switchedPath('/groups', 'b_b')).toBeNull();
  });
});
