export { ApiError, type Client, createClient, sessionTokenOf, UnreachableError } from './client.ts';
export type { CliIo } from './context.ts';
export { buildProgram, exitCodes, runCli } from './program.ts';
