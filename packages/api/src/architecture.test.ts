import { describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const root = join(import.meta.dir);

/** Every TypeScript source file under packages/api/src, as a path relative to it. */
function sources(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

/** Test code (suites, and the helpers under testing/ they share) may set up rows as it likes and reach anywhere. */
const isTestCode = (file: string) => file.endsWith('.test.ts') || file.startsWith('testing/');

/**
 * The five floors of docs/ARCHITECTURE.md, by the first part of a path. An import may go down a floor
 * or stay on its own, never up. A new top-level file or folder must be given its floor here.
 */
const WIRING = 5;
const ENTRY = 4;
const AREAS = 3;
const DELIVERY = 2;
const MACHINERY = 1;
export const floors: Record<string, number> = {
  // Wiring: builds the app, the processes and the job-handler registry from everything below.
  'app.ts': WIRING,
  'server.ts': WIRING,
  'worker.ts': WIRING,
  'main.ts': WIRING,
  'index.ts': WIRING,
  'init-data-dir.ts': WIRING,
  'seed-demo.ts': WIRING,
  'job-handlers.ts': WIRING,
  // Entry points: what a browser, a locker, a partner system or a provider calls.
  rpc: ENTRY,
  hubs: ENTRY,
  'integration-api': ENTRY,
  callbacks: ENTRY,
  http: ENTRY,
  docs: ENTRY,
  // Areas: one folder each, service and repository; other areas only through their index.ts.
  areas: AREAS,
  // Delivery: sends what areas recorded (messages, webhooks); never calls an area.
  delivery: DELIVERY,
  // Machinery: what every floor above may use.
  access: MACHINERY,
  audit: MACHINERY,
  cluster: MACHINERY,
  // The settings read from the environment, and what every call is given (the app's dependencies, the actor).
  config: MACHINERY,
  context: MACHINERY,
  jobs: MACHINERY,
  lists: MACHINERY,
  live: MACHINERY,
  log: MACHINERY,
  mail: MACHINERY,
  metrics: MACHINERY,
  outbox: MACHINERY,
  payments: MACHINERY,
  'one-time': MACHINERY,
  rows: MACHINERY,
  'rate-limits': MACHINERY,
  secrets: MACHINERY,
  sessions: MACHINERY,
  ssrf: MACHINERY,
  'staff-notifications': MACHINERY,
};

const floorOf = (file: string): number | undefined => floors[file.split('/')[0] ?? ''];

/** A room of the house: one area or delivery channel, or one top-level folder or file. */
function roomOf(file: string): string {
  const parts = file.split('/');
  if ((parts[0] === 'areas' || parts[0] === 'delivery') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts.length > 1 ? (parts[0] ?? file) : file;
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/g;

/** The files of src a file imports (type-only and side-effect imports too: they tie the two as much). */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(importPattern)].map((m) => normalize(join(dirname(file), (m[1] ?? m[2] ?? m[3]) as string)));
}

type Edge = { from: string; to: string };

/** Every import between two non-test files of src. */
export function importEdges(files: Map<string, string>): Edge[] {
  return [...files].flatMap(([from, text]) =>
    importsOf(from, text)
      .filter((to) => files.has(to))
      .map((to) => ({ from, to })),
  );
}

/** Imports that climb a floor, and files on no floor. */
export function climbing(edges: Edge[], files: Iterable<string>): string[] {
  const unplaced = [...files].filter((f) => floorOf(f) === undefined).map((f) => `${f}: on no floor`);
  const up = edges
    .filter(({ from, to }) => (floorOf(to) ?? 0) > (floorOf(from) ?? 0))
    .map(({ from, to }) => `${from} -> ${to}: floor ${floorOf(from)} imports floor ${floorOf(to)}`);
  return [...unplaced, ...up];
}

/** Imports into an area from outside it that do not go through the area's index.ts. */
export function pastTheIndex(edges: Edge[]): string[] {
  return edges
    .filter(({ from, to }) => to.startsWith('areas/') && roomOf(to) !== roomOf(from))
    .filter(({ to }) => to !== `${roomOf(to)}/index.ts`)
    .map(({ from, to }) => `${from} -> ${to}: use ${roomOf(to)}/index.ts`);
}

/** Strongly connected groups of more than one node (Tarjan), each sorted. */
export function loops(edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** Loops between rooms, each with the imports that tie it. */
export function roomLoops(edges: Edge[]): string[] {
  const between = edges
    .map(({ from, to }) => ({ from: roomOf(from), to: roomOf(to), file: `${from} -> ${to}` }))
    .filter(({ from, to }) => from !== to);
  return loops(between).map((group) => {
    const ties = between.filter(({ from, to }) => group.includes(from) && group.includes(to)).map((e) => e.file);
    return `${group.join(' <-> ')}: ${ties.join(', ')}`;
  });
}

const production = new Map(
  sources()
    .filter((file) => !isTestCode(file))
    .map((file) => [file, readFileSync(join(root, file), 'utf8')]),
);
const edges = importEdges(production);

describe('the api stands on five floors', () => {
  it('gives every file a floor, and no import climbs one', () => {
    expect(climbing(edges, production.keys())).toEqual([]);
  });

  it('reaches into another area only through its index.ts', () => {
    expect(pastTheIndex(edges)).toEqual([]);
  });

  it('has no two rooms (areas, delivery channels, folders) that need each other, however far round', () => {
    expect(roomLoops(edges)).toEqual([]);
  });

  it('has no loop of files', () => {
    expect(loops(edges).map((group) => group.join(' -> '))).toEqual([]);
  });

  it('catches a climbing import, a room loop and a file loop planted on purpose', () => {
    const planted = new Map([
      ['lists/paging.ts', "import { x } from '../areas/orders/service.ts';"],
      ['areas/orders/service.ts', "import { y } from '../patients/index.ts';"],
      ['areas/patients/index.ts', "import { z } from './service.ts';"],
      ['areas/patients/service.ts', "import type { Order } from '../orders/index.ts';"],
      ['areas/orders/index.ts', "export * from './service.ts';"],
      // An import for its side effects climbs as much as one that names what it takes.
      ['lists/cursor.ts', "import '../areas/orders/index.ts';"],
    ]);
    const plantedEdges = importEdges(planted);
    expect(climbing(plantedEdges, planted.keys())).toEqual([
      'lists/paging.ts -> areas/orders/service.ts: floor 1 imports floor 3',
      'lists/cursor.ts -> areas/orders/index.ts: floor 1 imports floor 3',
    ]);
    expect(pastTheIndex(plantedEdges)).toEqual([
      'lists/paging.ts -> areas/orders/service.ts: use areas/orders/index.ts',
    ]);
    expect(roomLoops(plantedEdges)).toHaveLength(1);
    expect(loops(plantedEdges)).toEqual([
      ['areas/orders/index.ts', 'areas/orders/service.ts', 'areas/patients/index.ts', 'areas/patients/service.ts'],
    ]);
  });
});

const queryBuilding = /\b(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`|\.with\(/;

describe('the api keeps its seams', () => {
  it('builds SQL only in files whose name ends in repository.ts', () => {
    const offences = sources()
      .filter((file) => !file.endsWith('repository.ts') && !isTestCode(file))
      .flatMap((file) =>
        readFileSync(join(root, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (queryBuilding.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offences).toEqual([]);
  });

  it('gives services no HTTP context: only controllers and the rpc layer see the request', () => {
    const httpTypes = /\b(RpcContext|AuthedContext|HttpExchange)\b/;
    const offences = sources()
      .filter((file) => file.startsWith('areas/') || file.startsWith('delivery/') || floorOf(file) === MACHINERY)
      .filter((file) => !isTestCode(file))
      .flatMap((file) =>
        readFileSync(join(root, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (httpTypes.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offences).toEqual([]);
  });
});

/**
 * A property read like `row.business_id`: a database row's column. Rows stop at the repository, which
 * maps them to camelCase domain objects (STYLE.md); string literals are not reads, and the names below
 * are other people's wire formats (OAuth 2 and OpenID Connect, Meta's WhatsApp callbacks), read where
 * they arrive.
 */
const snakeRead = /\b[a-z][A-Za-z0-9]*\??\.([a-z]+_[a-z0-9_]+)\b/g;
const wireFields = new Set([
  'access_token',
  'scopes_supported',
  'code_challenge_methods_supported',
  'error_description',
  'error_data',
  // NHS login's claim (the OpenID wire format), not a column.
  'nhs_number',
]);
const withoutStrings = (line: string) => line.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");

function rowReads(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of sources().filter((f) => !f.endsWith('repository.ts') && !isTestCode(f))) {
    for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
      const code = line.trimStart();
      if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) continue;
      for (const m of withoutStrings(line).matchAll(snakeRead)) {
        if (!wireFields.has(m[1] ?? '')) counts.set(file, (counts.get(file) ?? 0) + 1);
      }
    }
  }
  return counts;
}

describe('rows stop at the repository', () => {
  it('reads no snake_case column outside the files whose name ends in repository.ts', () => {
    const over = [...rowReads()].map(([file, n]) => `${file}: ${n} row reads`);
    expect(over).toEqual([]);
  });
});
