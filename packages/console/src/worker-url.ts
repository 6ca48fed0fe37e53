/** Replaced at build time (build.ts) by the map of worker name → hashed URL under /assets/. */
declare const CONSOLE_WORKER_URLS: Record<string, string>;

/** The URL of a Web Worker bundled by build.ts, e.g. `new Worker(workerUrl('csvImport'), { type: 'module' })`. */
export function workerUrl(name: string): string {
  const url = CONSOLE_WORKER_URLS[name];
  if (!url) throw new Error(`no worker named ${name} was built (see packages/console/build.ts)`);
  return url;
}
