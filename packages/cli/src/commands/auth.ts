import type { Command } from 'commander';
import { ApiError, sessionTokenOf } from '../client.ts';
import { type CliIo, CliRefusal, type CommandContext, contextOf, signedIn, UsageError } from '../context.ts';
import { forgetSession, saveSession } from '../credentials.ts';
import { renderFields } from '../ui/table.tsx';

const when = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

type LoginOptions = { email?: string; passwordStdin?: boolean; browser?: boolean };

/** `medlocker login`, `logout`, `whoami`. */
export function authCommands(program: Command, io: CliIo): void {
  program
    .command('login')
    .description('Sign in and keep the session token for this API in ~/.config/medlocker/credentials.json')
    .option('--email <email>', 'your email address (asked for when omitted on a terminal)')
    .option('--password-stdin', 'read the password from standard input (for scripts)')
    .option('--browser', 'sign in through the console in a browser (single sign-on users have no password)')
    .option('--code <code>', 'the second-factor code (authenticator app or recovery code), asked for when needed')
    .action(async (options: LoginOptionsWithCode, command: Command) => {
      const ctx = contextOf(io, command);
      if (options.browser) {
        if (options.passwordStdin) throw new UsageError('--browser and --password-stdin cannot be used together');
        await browserLogin(ctx);
      } else {
        await passwordLogin(ctx, options);
      }
    });
  logoutCommand(program, io);
  whoamiCommand(program, io);
}

/** Signs in through the console: shows a code to approve there, then polls until it is approved. */
async function browserLogin(ctx: CommandContext): Promise<void> {
  const begun = await ctx.client().call('auth', 'beginCliSignIn', {});
  ctx.io.stderr(
    `Open this page in a browser, sign in, and approve the code ${begun.userCode}:\n  ${begun.verificationUrl}\n`,
  );
  for (;;) {
    const polled = await ctx.client().call('auth', 'pollCliSignIn', { deviceCode: begun.deviceCode });
    if (polled.status === 'approved' && polled.token) {
      const session = await ctx.client(polled.token).call('auth', 'session', {});
      await saveSession(ctx.credentialsFile, ctx.apiUrl, {
        token: polled.token,
        email: session.user.email,
        expires: session.expires,
      });
      ctx.print(
        { ok: true, api: ctx.apiUrl, expires: session.expires, scopes: session.scopes, user: session.user },
        () =>
          `Logged in to ${ctx.apiUrl} as ${session.user.name} <${session.user.email}> until ${when(session.expires)}`,
      );
      return;
    }
    if (polled.status === 'expired')
      throw new CliRefusal('The sign-in was not approved in time. Run medlocker login --browser again.');
    await new Promise((resolve) => setTimeout(resolve, begun.intervalSeconds * 1000));
  }
}

/** The email and password: from --email and standard input in a script, else asked for on the terminal. */
async function credentialsOf(io: CliIo, options: LoginOptions): Promise<{ email?: string; password?: string }> {
  const email = options.email?.trim();
  if (options.passwordStdin) {
    const password = (await io.readStdin()).replace(/\r?\n$/, '');
    if (!password) throw new UsageError('--password-stdin was given but standard input held no password');
    if (!email) throw new UsageError('--email is required with --password-stdin');
    return { email, password };
  }
  if (!io.interactive) throw new UsageError('Not a terminal: pass --email and --password-stdin');
  const answers = await io.ask([
    ...(email ? [] : [{ name: 'email', label: 'Email' }]),
    { name: 'password', label: 'Password', secret: true },
  ]);
  if (!answers) throw new CliRefusal('Cancelled');
  return { email: email ?? answers.email, password: answers.password };
}

type LoginAnswer = {
  ok: boolean;
  reason?: string;
  message?: string;
  result?: {
    expires: number;
    scopes: string[];
    user: { email: string; name: string };
    secondFactorSetupRequired?: boolean;
  };
  secondFactor?: { methods: string[] };
};

type LoginOptionsWithCode = LoginOptions & { code?: string };

/**
 * The second step of a sign-in whose account has a second factor: a code from the authenticator app or a
 * recovery code (--code in a script, else asked for), sent with the waiting session's token; a passkey
 * needs a browser (`medlocker login --browser`).
 */
async function answerSecondFactor(
  ctx: CommandContext,
  options: LoginOptionsWithCode,
  waitingToken: string,
  methods: string[],
): Promise<{ body: LoginAnswer; token: string | undefined }> {
  let code = options.code?.trim();
  if (!code && methods.every((m) => m === 'passkey'))
    throw new CliRefusal('This account signs in with a passkey: use medlocker login --browser');
  if (!code) {
    if (!ctx.io.interactive) throw new UsageError('This account has a second factor: pass --code');
    const answers = await ctx.io.ask([{ name: 'code', label: 'Code from your authenticator app, or a recovery code' }]);
    if (!answers) throw new CliRefusal('Cancelled');
    code = answers.code?.trim();
  }
  const { body, headers } = await ctx.client(waitingToken).raw('auth', 'verifySecondFactor', { code });
  return { body: body as LoginAnswer, token: sessionTokenOf(headers) };
}

async function passwordLogin(ctx: CommandContext, options: LoginOptionsWithCode): Promise<void> {
  const { email, password } = await credentialsOf(ctx.io, options);
  const first = await ctx.client().raw('auth', 'login', { username: email, password });
  let answer = first.body as LoginAnswer;
  let token = sessionTokenOf(first.headers);
  if (answer.reason === 'SecondFactorRequired' && token) {
    ({ body: answer, token } = await answerSecondFactor(ctx, options, token, answer.secondFactor?.methods ?? []));
  }
  const result = answer.result;
  if (!answer.ok || !result || !token) {
    const message =
      answer.reason === 'ForceReset'
        ? `${answer.message ?? 'You must set a new password.'} Use 'I forgot my password' on the login page.`
        : (answer.message ?? 'Login failed');
    throw new ApiError(200, answer.reason ?? 'LOGIN_FAILED', message);
  }
  if (result.secondFactorSetupRequired) {
    // That session can only set up a factor, which needs the console: end it rather than keep it.
    await ctx
      .client(token)
      .call('auth', 'logout', {})
      .catch(() => undefined);
    throw new CliRefusal(
      'Your account must have a second factor: sign in to the console once to set one up, then run medlocker login again.',
    );
  }
  await saveSession(ctx.credentialsFile, ctx.apiUrl, { token, email: result.user.email, expires: result.expires });
  const scopes = result.scopes.length ? ` (scopes: ${result.scopes.join(', ')})` : '';
  ctx.print(
    { ok: true, api: ctx.apiUrl, ...result },
    () =>
      `Logged in to ${ctx.apiUrl} as ${result.user.name} <${result.user.email}> until ${when(result.expires)}${scopes}`,
  );
}

function logoutCommand(program: Command, io: CliIo): void {
  program
    .command('logout')
    .description('End the session on the server and forget its token')
    .action(async (_options: unknown, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      try {
        await client.call('auth', 'logout', {});
      } finally {
        await forgetSession(ctx.credentialsFile, ctx.apiUrl);
      }
      ctx.print({ ok: true }, () => `Logged out of ${ctx.apiUrl}`);
    });
}

function whoamiCommand(program: Command, io: CliIo): void {
  program
    .command('whoami')
    .description('Show who the stored session belongs to')
    .action(async (_options: unknown, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      const session = await client.call('auth', 'session', {});
      ctx.print(session, () =>
        renderFields([
          ['Name', session.user.name],
          ['Email', session.user.email],
          ['User id', session.user.id],
          ['Scopes', session.scopes.join(', ') || '(none)'],
          ['Session ends', when(session.expires)],
          ['API', ctx.apiUrl],
        ]),
      );
    });
}
