import { t as sharedT } from '../i18n/layer.ts';
import { ApiError, messageOf, rpc } from './api.ts';
import type { PageContext } from './context.ts';
import { banner, button, field, form, h, link } from './dom.ts';
import { t } from './i18n/index.ts';

/** SPEC §5: the shortest password. */
const passwordMinLength = 12;

/** The token from the fragment (`#token=…`): fragments never reach servers or logs. */
function tokenOf(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/**
 * An invited or registering person (`#…&new=1`, see the api's resetLink) never had a
 * password: "Set a new password" would puzzle them, so the page says "Choose your password".
 */
function isFirstPassword(hash: string): boolean {
  return new URLSearchParams(hash.replace(/^#/, '')).get('new') === '1';
}

/** SPEC §5: at least 12 characters, and typed the same twice. */
function passwordProblems(password: string, confirmation: string): Record<string, string> {
  const problems: Record<string, string> = {};
  if (password.length < passwordMinLength) problems.password = t('signIn.reset.tooShort', { min: passwordMinLength });
  if (password !== confirmation) problems.confirmation = t('signIn.reset.mismatch');
  return problems;
}

/** What a refused reset means: a message about the password, a link that no longer works, or else. */
function refusalOf(e: unknown): { fields?: Record<string, string>; linkInvalid?: true; error?: string } {
  if (e instanceof ApiError && e.details.some((d) => d.path === 'password')) return { fields: e.fieldErrors };
  if (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 429) return { linkInvalid: true };
  if (e instanceof ApiError && e.code === 'UNEXPECTED_STATUS') return { error: sharedT('api.unknownError') };
  return { error: messageOf(e) };
}

/** SPEC §2/§4: set a new password with the emailed link; success goes to login. */
export function reset(ctx: PageContext): void {
  const first = isFirstPassword(window.location.hash);
  const title = first ? t('signIn.reset.titleFirst') : t('signIn.reset.title');
  ctx.title(title);
  const token = tokenOf(window.location.hash);
  if (token === '') {
    invalidLink(ctx, title);
    return;
  }
  const password = field({
    label: first ? t('signIn.reset.passwordFirst') : t('signIn.reset.password'),
    name: 'password',
    type: 'password',
    autocomplete: 'new-password',
    description: t('signIn.reset.passwordHelp', { min: passwordMinLength }),
    autofocus: true,
  });
  const confirmation = field({
    label: first ? t('signIn.reset.confirmFirst') : t('signIn.reset.confirm'),
    name: 'confirmation',
    type: 'password',
    autocomplete: 'new-password',
  });
  const submit = button(t('signIn.reset.submit'), 'primary');
  const f = form([password, confirmation], [h('div', { class: 'form__actions' }, submit.el)], async () => {
    const problems = passwordProblems(password.input.value, confirmation.input.value);
    f.errors(undefined, problems);
    if (Object.keys(problems).length > 0) return;
    submit.pending = true;
    try {
      await rpc('auth', 'completeResetPassword', { password: password.input.value, token });
      ctx.navigate('/auth/login', {
        replace: true,
        state: { notice: t('signIn.reset.done') },
      });
    } catch (e) {
      submit.pending = false;
      const refusal = refusalOf(e);
      if (refusal.fields) f.errors(undefined, refusal.fields);
      else if (refusal.linkInvalid) invalidLink(ctx, title);
      else f.errors(refusal.error);
    }
  });
  ctx.show(h('h1', { class: 'card__title' }, title), f.el);
}

/** The link was used, expired or never valid: a new one can be sent. */
function invalidLink(ctx: PageContext, title: string): void {
  ctx.show(
    h('h1', { class: 'card__title' }, title),
    banner('error', t('signIn.reset.invalidLink')),
    h(
      'p',
      { class: 'auth__links' },
      link('/auth/reset/begin', t('signIn.reset.sendNewLink')),
      link('/auth/login', t('signIn.backToLogIn')),
    ),
  );
}
