import { contract } from './index.ts';

/**
 * Names for the actor lists most methods share, so the generated file says `staff` where the access
 * is `['support', 'pharmacy']`; a list not named here is written out as it is.
 */
const namedActorLists: Record<string, string> = {
  "'anonymous', 'support', 'pharmacy'": 'anyone',
  "'support', 'pharmacy'": 'staff',
  "'support'": 'support',
  "'patient'": 'patient',
};

/** The text of method-actors.ts as generated from the contract (scripts/generate-method-actors.ts). */
export function methodActorsSource(): string {
  const areas = Object.entries(contract).map(([area, methods]) => {
    const lines = Object.entries(methods as Record<string, { access: { actors: readonly string[] } }>).map(
      ([method, { access }]) => {
        const list = access.actors.map((a) => `'${a}'`).join(', ');
        return `    ${method}: ${namedActorLists[list] ?? `[${list}]`},`;
      },
    );
    return `  ${area}: {\n${lines.join('\n')}\n  },`;
  });
  const names = Object.entries(namedActorLists).map(([list, name]) => `const ${name} = [${list}] as const;`);
  return `// Generated from the contract by packages/core/scripts/generate-method-actors.ts: do not edit.
import type { ActorKind } from './define.ts';

${names.join('\n')}

/**
 * Who may call each method (its \`access.actors\`), without the schemas: front ends read this to show
 * only the actions the signed-in actor may take. method-actors.test.ts checks it matches the contract.
 */
export const methodActors = {
${areas.join('\n')}
} as const satisfies Record<string, Record<string, readonly ActorKind[]>>;
`;
}
