import type { Command } from 'commander';
import type { Client } from './client.ts';
import { type CliIo, signedIn } from './context.ts';

/**
 * `NAME <id>` under `parent`: looks one thing up by its id with a signed-in client and prints what
 * `fetch` found: as JSON with --json, else as `text` makes it.
 */
export function showCommand<T>(
  parent: Command,
  io: CliIo,
  spec: {
    name: string;
    description: string;
    /** What the id names: 'business id'. */
    id: string;
    fetch: (client: Client, id: string) => Promise<T>;
    text: (found: T) => string;
  },
): void {
  parent
    .command(spec.name)
    .description(spec.description)
    .argument('<id>', spec.id)
    .action(async (id: string, _options: unknown, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      const found = await spec.fetch(client, id);
      ctx.print(found, () => spec.text(found));
    });
}
