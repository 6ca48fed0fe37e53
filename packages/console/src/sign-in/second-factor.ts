import type { SecondFactorMethod } from '../../../core/src/contract/second-factor.ts';
import { rememberSessionHint } from '../state/session-hint.ts';
import { messageOf, rpc } from './api.ts';
import type { PageContext } from './context.ts';
import { banner, button, field, form, h } from './dom.ts';
import { t } from './i18n/index.ts';

/**
 * The second step of a sign-in, after the right password of a user with a second factor: a code from
 * their authenticator app or a recovery code, or their passkey (the WebAuthn library is fetched only when
 * the button is pressed, so the sign-in page stays small). A right answer opens `from`; too many wrong
 * ones end the attempt (back to the first step with the lockout message).
 */
export function secondFactorStep(
  ctx: PageContext,
  methods: readonly SecondFactorMethod[],
  from: string,
  restart: () => void,
): void {
  ctx.title(t('signIn.login.title'));
  const codes = methods.includes('totp') || methods.includes('recovery');
  const code = field({
    label: t('signIn.secondFactor.code'),
    name: 'code',
    autocomplete: 'one-time-code',
    description: t('signIn.secondFactor.codeHelp'),
    autofocus: true,
  });
  code.input.setAttribute('inputmode', methods.includes('totp') ? 'numeric' : 'text');
  const submit = button(t('signIn.secondFactor.verify'), 'primary');
  const passkey = methods.includes('passkey')
    ? button(t('signIn.secondFactor.usePasskey'), codes ? 'quiet' : 'primary', 'button')
    : null;
  const f = form(
    codes ? [code] : [],
    [h('div', { class: 'form__actions' }, codes && submit.el, passkey?.el)],
    async () => {
      if (!codes) return;
      submit.pending = true;
      await verify({ code: code.input.value }).finally(() => {
        submit.pending = false;
      });
    },
  );

  async function verify(answer: Parameters<typeof rpc<'auth', 'verifySecondFactor'>>[2]) {
    f.errors(undefined);
    try {
      const result = await rpc('auth', 'verifySecondFactor', answer);
      if (result.ok) {
        rememberSessionHint(true);
        window.location.replace(from);
        return;
      }
      code.input.value = '';
      // Locked: this attempt is over (the server ended it); Start again once the wait is done.
      if (result.reason === 'TooManyAttempts') {
        submit.disabled = true;
        if (passkey) passkey.disabled = true;
      }
      f.errors(result.message ?? t('signIn.secondFactor.notAccepted'));
    } catch (e) {
      f.errors(messageOf(e));
    }
  }

  passkey?.el.addEventListener('click', async () => {
    passkey.pending = true;
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const { options } = await rpc('auth', 'beginPasskeySignIn', {});
      const response = await startAuthentication({ optionsJSON: options as never }).catch(() => null);
      if (response) await verify({ passkey: response as never });
      else f.errors(t('signIn.secondFactor.passkeyNotUsed'));
    } catch (e) {
      f.errors(messageOf(e));
    } finally {
      passkey.pending = false;
    }
  });

  const again = button(t('signIn.secondFactor.startAgain'), 'quiet', 'button');
  again.el.addEventListener('click', () => restart());
  ctx.show(
    h('h1', { class: 'card__title' }, t('signIn.login.title')),
    banner('info', t('signIn.secondFactor.lead')),
    f.el,
    h('nav', { class: 'auth__links', 'aria-label': t('signIn.otherOptions') }, again.el),
  );
}
