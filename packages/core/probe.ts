import { contract } from './src/index.ts';
const found: string[] = [];
function walk(node: any, path: string) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) { node.forEach((n, i) => walk(n, path)); return; }
  if ((node.type === 'number' || node.type === 'integer') && node.maximum === undefined && node.exclusiveMaximum === undefined && node.const === undefined && node.enum === undefined) found.push(path);
  for (const [k, v] of Object.entries(node)) walk(v, k === 'properties' ? path : `${path}${k === 'items' ? '[]' : ''}`);
  if (node.properties) for (const [k, v] of Object.entries(node.properties)) walk(v, `${path}.${k}`);
}
for (const [area, methods] of Object.entries(contract as any)) for (const [m, def] of Object.entries(methods as any)) {
  try {
    const js = (def as any).input.toJsonSchema({ fallback: (ctx: any) => ctx.base });
    walk(js, `${area}/${m}`);
  } catch (e) { found.push(`${area}/${m}: ${String(e).slice(0, 80)}`); }
}
console.log([...new Set(found)].join('\n'));
