import { contract } from './index.ts';

/** The text of method-actors.ts as generated from the contract (scripts/generate-method-actors.ts). */
export function methodActorsSource(): string {
  const areas = Object.entries(contract).map(([area, methods]) => {
    const lines = Object.entries(methods as Record<string, { access: { actors: readonly string[] } }>).map(
      ([method, { access }]) => `    ${method}: [${access.actors.map((a) => `'${a}'`).join(', ')}],`,
    );
    return `  ${area}: {\n${lines.join('\n')}\n  },`;
  });
  return `// Generated from the contract by packages/core/scripts/generate-method-actors.ts: do not edit.
import type { ActorKind } from './define.ts';

/**
 * Who may call each method (its \`access.actors\`), without the schemas: front ends read this to show
 * only the actions the signed-in actor may take. method-actors.test.ts checks it matches the contract.
 */
export const methodActors = {
${areas.join('\n')}
} as const satisfies Record<string, Record<string, readonly ActorKind[]>>;
`;
}
