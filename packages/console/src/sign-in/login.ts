import { rememberSessionHint } from '../state/session-hint.ts';
import { ApiError, messageOf, rpc } from './api.ts';
import type { PageContext } from './context.ts';
import { banner, button, type Field, field, form, h, link } from './dom.ts';
import { t } from './i18n/index.ts';
import { returnPathOf } from './return-path.ts';
import { secondFactorStep } from './second-factor.ts';

/** SPEC §8 login messages. */
const invalidCredentialsMessage = () => t('signIn.login.invalidCredentials');
const tooManyAttemptsMessage = () => t('signIn.login.tooManyAttempts');

/** Why a sign-in through an identity provider came back refused (`/auth/login?sso=…`, see api sso/flow.ts). */
const ssoFailures = ['expired', 'browser', 'provider', 'rejected', 'cancelled', 'unverified', 'disabled', 'unknown'];
export const ssoFailureMessage = (sso: string) =>
  t(`signIn.sso.${(ssoFailures.includes(sso) ? sso : 'rejected') as 'rejected'}`);

type Step = 'username' | 'password';

/**
 * SPEC §2/§4 login, in two steps: the username (an email) asks whether an identity provider signs
 * this user in (then the browser leaves for it), else the password step; the password signs in (a
 * page load of `from`, the console's own page), or is refused (SPEC §8 messages), or must be reset
 * first (reset-begin with the username filled in).
 */
export function login(ctx: PageContext): void {
  ctx.title(t('signIn.login.title'));
  const from = returnPathOf(window.location.search);
  const sso = new URLSearchParams(window.location.search).get('sso');
  // A one-time message handed over in the history entry ('Your password has been set…'): not repeated on reload.
  const { notice: flash, ...rest } = ctx.state ?? {};
  if (typeof flash === 'string') history.replaceState(Object.keys(rest).length > 0 ? rest : null, '');
  let username = typeof ctx.state?.email === 'string' ? ctx.state.email : '';
  let error = sso ? ssoFailureMessage(sso) : undefined;

  const noticeSlot = h('div', {});
  ctx.withSessionNotice((sessionNotice) => {
    const text = sessionNotice ?? (typeof flash === 'string' ? flash : undefined);
    noticeSlot.replaceChildren(...(text ? [banner(sessionNotice ? 'warning' : 'success', text)] : []));
  });
  // The way to reset carries the username typed so far.
  const forgot = link('/auth/reset/begin', t('signIn.login.forgot'), () => ({ email: username }));
  const register = link('/auth/register', t('signIn.login.register'));
  const links = h('nav', { class: 'auth__links', 'aria-label': t('signIn.otherOptions') }, forgot);
  ctx.withConfig((config) => {
    if (config.allowRegistration) links.append(register);
    else register.remove();
  });

  const draw = (step: Step, fieldErrors: Record<string, string> = {}) => {
    const submit = button(step === 'username' ? t('signIn.login.next') : t('signIn.login.submit'), 'primary');
    const fields = step === 'username' ? [usernameField(username)] : [passwordField()];
    const [input] = fields;
    if (step === 'username') input?.input.addEventListener('input', () => (username = input.input.value));
    const extra =
      step === 'password'
        ? passwordStepHead(username, () => {
            error = undefined;
            draw('username');
          })
        : [];
    const f = form(fields, [h('div', { class: 'form__actions' }, submit.el)], async () => {
      f.errors(undefined);
      error = undefined;
      submit.pending = true;
      try {
        if (step === 'username') {
          username = input?.input.value ?? '';
          if (await leaveForIdentityProvider(username, from)) return; // stays pending while the browser leaves
          draw('password');
        } else {
          const refusal = await signIn(ctx, username, input?.input.value ?? '', from);
          if (refusal === undefined) return;
          error = refusal;
          submit.pending = false;
          f.errors(error);
          if (refusal === invalidCredentialsMessage() && input) input.input.value = '';
        }
      } catch (e) {
        submit.pending = false;
        if (e instanceof ApiError && e.details.some((d) => d.path)) f.errors(undefined, e.fieldErrors);
        else {
          error = messageOf(e);
          f.errors(error);
        }
      }
    });
    f.body.prepend(...extra);
    f.errors(error, fieldErrors);
    ctx.show(h('h1', { class: 'card__title' }, t('signIn.login.title')), noticeSlot, f.el, links);
  };
  draw('username');
}

/** Whether an identity provider signs this user in: then the browser is on its way there. */
async function leaveForIdentityProvider(username: string, from: string): Promise<boolean> {
  const returnUrl = new URL(from, window.location.origin).toString();
  const { authUrl } = await rpc('auth', 'getIdentityProviderAuthUrl', { username, returnUrl });
  if (!authUrl) return false;
  // The identity provider sends the browser back with a session cookie: the console looks for it then.
  rememberSessionHint(true);
  window.location.assign(authUrl);
  return true;
}

/** Signs in and opens `from` (a page load of the console); or the message of a refusal. */
async function signIn(ctx: PageContext, username: string, password: string, from: string) {
  const answer = await rpc('auth', 'login', { username, password });
  if (answer.ok && answer.result) {
    rememberSessionHint(true);
    window.location.replace(from);
    return undefined;
  }
  if (answer.reason === 'SecondFactorRequired') {
    secondFactorStep(ctx, answer.secondFactor?.methods ?? ['totp', 'recovery'], from, () =>
      ctx.navigate('/auth/login', { replace: true, state: { email: username } }),
    );
    return undefined;
  }
  if (answer.reason === 'ForceReset') {
    ctx.navigate('/auth/reset/begin', { state: { email: username, forced: true } });
    return undefined;
  }
  if (answer.reason === 'TooManyAttempts') return answer.message ?? tooManyAttemptsMessage();
  // A disabled account (not used for the global setting's days): the server's words say who can enable it.
  if (answer.reason === 'AccountDisabled' && answer.message) return answer.message;
  return invalidCredentialsMessage();
}

const usernameField = (value: string): Field =>
  field({
    label: t('signIn.emailAddress'),
    name: 'username',
    type: 'email',
    autocomplete: 'username',
    value,
    autofocus: true,
  });

const passwordField = (): Field =>
  field({
    label: t('signIn.login.password'),
    name: 'password',
    type: 'password',
    autocomplete: 'current-password',
    autofocus: true,
  });

/** The username the password is for, with Change to go back; and the same, hidden, for password managers. */
function passwordStepHead(username: string, onChange: () => void): Node[] {
  const change = button(t('signIn.login.change'), 'quiet', 'button');
  change.el.addEventListener('click', onChange);
  return [
    h(
      'div',
      { class: 'login__username' },
      h('span', { class: 'field__label' }, t('signIn.emailAddress')),
      h('span', { class: 'login__username-value' }, username),
      change.el,
    ),
    h('input', {
      type: 'email',
      name: 'username',
      autocomplete: 'username',
      value: username,
      readonly: true,
      hidden: true,
    }),
  ];
}
