import type { Command } from 'commander';
import { ApiError, sessionTokenOf } from '../client.ts';
import { type CliIo, CliRefusal, commandContext, type GlobalOptions, UsageError } from '../context.ts';
import { forgetSession, saveSession } from '../credentials.ts';
import { renderFields } from '../ui/table.tsx';

const when = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

/** `medlocker login`, `logout`, `whoami`. */
export function authCommands(program: Command, io: CliIo): void {
  program
    .command('login')
    .description('Sign in and keep the session token for this API in ~/.config/medlocker/credentials.json')
    .option('--email <email>', 'your email address (asked for when omitted on a terminal)')
    .option('--password-stdin', 'read the password from standard input (for scripts)')
    .option('--browser', 'sign in through the console in a browser (single sign-on users have no password)')
    .action(async (options: { email?: string; passwordStdin?: boolean; browser?: boolean }, command: Command) => {
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      if (options.browser) {
        if (options.passwordStdin) throw new UsageError('--browser and --password-stdin cannot be used together');
        const begun = await ctx.client().call('auth', 'beginCliSignIn', {});
        io.stderr(
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
      let email = options.email?.trim();
      let password: string | undefined;
      if (options.passwordStdin) {
        password = (await io.readStdin()).replace(/\r?\n$/, '');
        if (!password) throw new UsageError('--password-stdin was given but standard input held no password');
        if (!email) throw new UsageError('--email is required with --password-stdin');
      } else {
        if (!io.interactive) throw new UsageError('Not a terminal: pass --email and --password-stdin');
        const answers = await io.ask([
          ...(email ? [] : [{ name: 'email', label: 'Email' }]),
          { name: 'password', label: 'Password', secret: true },
        ]);
        if (!answers) throw new CliRefusal('Cancelled');
        email ??= answers.email;
        password = answers.password;
      }
      const { body, headers } = await ctx.client().raw('auth', 'login', { username: email, password });
      const answer = body as {
        ok: boolean;
        reason?: string;
        message?: string;
        result?: { expires: number; scopes: string[]; user: { email: string; name: string } };
      };
      const token = sessionTokenOf(headers);
      if (!answer.ok || !answer.result || !token) {
        const message =
          answer.reason === 'ForceReset'
            ? `${answer.message ?? 'You must set a new password.'} Use 'I forgot my password' on the login page.`
            : (answer.message ?? 'Login failed');
        throw new ApiError(200, answer.reason ?? 'LOGIN_FAILED', message);
      }
      await saveSession(ctx.credentialsFile, ctx.apiUrl, {
        token,
        email: answer.result.user.email,
        expires: answer.result.expires,
      });
      ctx.print(
        { ok: true, api: ctx.apiUrl, ...answer.result },
        () =>
          `Logged in to ${ctx.apiUrl} as ${answer.result?.user.name} <${answer.result?.user.email}>` +
          ` until ${when(answer.result?.expires ?? 0)}${answer.result?.scopes.length ? ` (scopes: ${answer.result.scopes.join(', ')})` : ''}`,
      );
    });

  program
    .command('logout')
    .description('End the session on the server and forget its token')
    .action(async (_options: unknown, command: Command) => {
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      const stored = await ctx.session();
      try {
        await ctx.client(stored.token).call('auth', 'logout', {});
      } finally {
        await forgetSession(ctx.credentialsFile, ctx.apiUrl);
      }
      ctx.print({ ok: true }, () => `Logged out of ${ctx.apiUrl}`);
    });

  program
    .command('whoami')
    .description('Show who the stored session belongs to')
    .action(async (_options: unknown, command: Command) => {
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      const stored = await ctx.session();
      const session = await ctx.client(stored.token).call('auth', 'session', {});
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
