import { expect, it } from 'bun:test';
import { routeOf } from './router.ts';

it('names the route of each patient path, and none for the others', () => {
  expect(routeOf('/p')).toEqual({ name: 'orders' });
  expect(routeOf('/p/')).toEqual({ name: 'orders' });
  expect(routeOf('/p/0190a1b2-c3d4')).toEqual({ name: 'order', orderId: '0190a1b2-c3d4' });
  expect(routeOf('/p/a%20b/')).toEqual({ name: 'order', orderId: 'a b' });
  for (const path of ['/p/a/b', '/pharmacy', '/', '/p/%E0%A4%A']) expect(routeOf(path)).toEqual({ name: 'notFound' });
});
