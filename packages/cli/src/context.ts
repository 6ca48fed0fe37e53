import type { Command } from 'commander';
import { type Client, createClient } from './client.ts';
import { credentialsPath, loadSession, type StoredSession } from './credentials.ts';
import type { Question } from './ui/prompt.tsx';

/** Everything a command touches outside itself, so tests run the cli in-process. */
export type CliIo = {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): Promise<string>;
  env: Record<string, string | undefined>;
  /** True on a terminal: then missing answers are asked for, and progress is shown. */
  interactive: boolean;
  ask(questions: Question[]): Promise<Record<string, string> | null>;
  fetch?: typeof fetch;
};

/** A wrong command line: exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Refused before reaching the API (not logged in): exit code 1, like an API refusal. */
export class CliRefusal extends Error {
  override name = 'CliRefusal';
  /** `data`: more for --json's error object (an import's per-row errors). */
  constructor(
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const DEFAULT_API = 'http://localhost:3000';

export type GlobalOptions = { api?: string; json?: boolean };

/** What a command gets: where the API is, how to talk to it, and how to answer. */
export type CommandContext = {
  io: CliIo;
  apiUrl: string;
  json: boolean;
  credentialsFile: string;
  client(token?: string): Client;
  /** The stored session of this API, or a refusal telling the user to log in. */
  session(): Promise<StoredSession>;
  /** Prints `data` as JSON with --json, else the human text. */
  print(data: unknown, human: () => string): void;
};

export function commandContext(io: CliIo, options: GlobalOptions): CommandContext {
  const raw = options.api ?? io.env.MEDLOCKER_API ?? DEFAULT_API;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
    throw new UsageError(`--api must be an http(s) URL, not '${raw}'`);
  }
  const apiUrl = new URL(raw).origin;
  const credentialsFile = credentialsPath(io.env);
  const json = options.json === true;
  return {
    io,
    apiUrl,
    json,
    credentialsFile,
    client: (token) =>
      createClient({ baseUrl: apiUrl, ...(token ? { token } : {}), ...(io.fetch ? { fetch: io.fetch } : {}) }),
    async session() {
      const stored = await loadSession(credentialsFile, apiUrl);
      if (!stored) throw new CliRefusal(`You are not logged in to ${apiUrl}. Run: medlocker login`);
      return stored;
    },
    print(data, human) {
      io.stdout(json ? `${JSON.stringify(data, null, 2)}\n` : `${human().replace(/\n*$/, '')}\n`);
    },
  };
}

/** The context of the command being run, from its options and the global ones. */
export const contextOf = (io: CliIo, command: Command): CommandContext =>
  commandContext(io, command.optsWithGlobals<GlobalOptions>());

/** The command's context and a client signed in with the stored session (a refusal when there is none). */
export async function signedIn(io: CliIo, command: Command): Promise<{ ctx: CommandContext; client: Client }> {
  const ctx = contextOf(io, command);
  return { ctx, client: ctx.client((await ctx.session()).token) };
}
