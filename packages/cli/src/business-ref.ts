import type { BusinessInfo } from '@medlocker/core';
import type { Command } from 'commander';
import { ApiError, type createClient } from './client.ts';
import { type CliIo, CliRefusal, type CommandContext, signedIn, UsageError } from './context.ts';

type Client = ReturnType<typeof createClient>;

/** Most pages of name matches read before giving up (25 a page). */
const MAX_PAGES = 20;

/**
 * The id of the business a `--business` value names: an id, or a name (in any case). A name that two
 * or more of the caller's businesses have is refused, listing each with its id to pass instead; so is
 * a value that is neither, with the businesses whose names contain it, if any.
 */
export async function businessIdOf(client: Client, ref: string): Promise<string> {
  const wanted = ref.trim();
  if (!wanted) throw new UsageError('--business needs a business id or name');
  try {
    await client.call('businesses', 'getBusinessInfo', { id: wanted });
    return wanted;
  } catch (error) {
    // Not an id the caller can see (404, or 400 for a value that cannot be an id): a name, perhaps.
    // A 403 is an id the caller has no role on: the command's own call will say so.
    if (!(error instanceof ApiError) || error.status === 403) {
      if (error instanceof ApiError) return wanted;
      throw error;
    }
  }
  const similar: BusinessInfo[] = [];
  let nextToken: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const found: { businesses: BusinessInfo[]; nextToken: string | null } = await client.call(
      'businesses',
      'listAccessibleBusinesses',
      {
        filterText: wanted,
        ...(nextToken ? { nextToken } : {}),
      },
    );
    similar.push(...found.businesses);
    nextToken = found.nextToken;
    if (!nextToken) break;
  }
  const named = similar.filter((b) => b.name.trim().toLowerCase() === wanted.toLowerCase());
  const listed = (list: BusinessInfo[]) => list.map((b) => `  ${b.name}  (--business ${b.id})`).join('\n');
  if (named.length === 1) return (named[0] as BusinessInfo).id;
  if (named.length > 1) {
    throw new UsageError(
      `${named.length} businesses are named "${wanted}"; give the id of the one you mean:\n${listed(named)}`,
    );
  }
  // Nothing by that id or name: refused as the server refuses an unknown id (exit 1); an ambiguous name
  // above is a command line to correct (exit 2).
  if (similar.length > 0) {
    throw new CliRefusal(
      `No business has the id or name "${wanted}". Businesses whose names contain it:\n${listed(similar.slice(0, 10))}`,
    );
  }
  throw new CliRefusal(`No business has the id or name "${wanted}"`);
}

/** The command's context, a client signed in with the stored session, and the business `ref` names. */
export async function signedInFor(
  io: CliIo,
  command: Command,
  ref: string,
): Promise<{ ctx: CommandContext; client: Client; businessId: string }> {
  const { ctx, client } = await signedIn(io, command);
  return { ctx, client, businessId: await businessIdOf(client, ref) };
}
