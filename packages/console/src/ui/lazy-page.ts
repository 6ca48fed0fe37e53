import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * A page whose module loads when the page is first shown (its own chunk of the build):
 * `lazyPage(() => import('./pages/jobs/JobList.tsx'), 'JobList')`.
 */
export function lazyPage<M extends Record<K, ComponentType>, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(() => load().then((m) => ({ default: m[name] })));
}

/** Several pages of one module, by name, as `lazyPage` makes each: the module loads once, for the first shown. */
export function lazyPages<M extends Record<K, ComponentType>, K extends keyof M>(
  load: () => Promise<M>,
  ...names: K[]
) {
  return Object.fromEntries(names.map((name) => [name, lazyPage(load, name)])) as {
    [P in K]: LazyExoticComponent<M[P]>;
  };
}
