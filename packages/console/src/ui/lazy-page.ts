import { type ComponentType, lazy } from 'react';

/**
 * A page whose module loads when the page is first shown (its own chunk of the build):
 * `lazyPage(() => import('./pages/jobs/JobList.tsx'), 'JobList')`.
 */
export function lazyPage<M extends Record<K, ComponentType>, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(() => load().then((m) => ({ default: m[name] })));
}
