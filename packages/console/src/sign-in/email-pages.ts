import { errorsOf, rpc } from './api.ts';
import type { PageContext } from './context.ts';
import { banner, button, type Field, field, form, h, link } from './dom.ts';
import { t } from './i18n/index.ts';

/** "Check your email": what was sent, and the way back to log in. */
function emailSent(ctx: PageContext, ...message: (Node | string)[]): void {
  ctx.show(
    h('h1', { class: 'card__title' }, t('signIn.email.checkTitle')),
    banner('success', ...message),
    backToLogIn(),
  );
}

const backToLogIn = () => h('p', { class: 'auth__links' }, link('/auth/login', t('signIn.backToLogIn')));

/**
 * The form of a page that emails a link (register, reset): the email address first, the page's other
 * fields, then its button; `send` runs on submit with the email address, the server's messages land
 * beside the fields.
 */
function emailForm(options: {
  email: string;
  more?: Field[];
  submitLabel: string;
  send: (email: string) => Promise<void>;
}) {
  const email = field({
    label: t('signIn.emailAddress'),
    name: 'email',
    type: 'email',
    autocomplete: 'email',
    value: options.email,
    autofocus: true,
  });
  const submit = button(options.submitLabel, 'primary');
  const f = form([email, ...(options.more ?? [])], [h('div', { class: 'form__actions' }, submit.el)], async () => {
    f.errors(undefined);
    submit.pending = true;
    try {
      await options.send(email.input.value);
    } catch (e) {
      const { fields, form: message } = errorsOf(e);
      f.errors(message, fields);
    } finally {
      submit.pending = false;
    }
  });
  return { el: f.el, submit };
}

/** SPEC §2 register: email and names; submitting shows an email-sent message. */
export function register(ctx: PageContext): void {
  ctx.title(t('signIn.register.title'));
  const givenName = field({ label: t('signIn.register.givenName'), name: 'givenName', autocomplete: 'given-name' });
  const familyName = field({ label: t('signIn.register.familyName'), name: 'familyName', autocomplete: 'family-name' });
  const closed = h('div', {});
  const { el, submit } = emailForm({
    email: '',
    more: [givenName, familyName],
    submitLabel: t('signIn.register.submit'),
    send: async (email) => {
      await rpc('auth', 'register', {
        email,
        givenName: givenName.input.value,
        familyName: familyName.input.value,
        frontEnd: 'support',
      });
      emailSent(ctx, t('signIn.register.sentBefore'), h('strong', {}, email.trim()), t('signIn.register.sentAfter'));
    },
  });
  ctx.show(h('h1', { class: 'card__title' }, t('signIn.register.title')), closed, el, backToLogIn());
  ctx.withConfig((config) => {
    submit.disabled = !config.allowRegistration;
    closed.replaceChildren(
      ...(config.allowRegistration
        ? []
        : [banner('info', t('signIn.register.closed', { product: config.productName }))]),
    );
  });
}

/** SPEC §2/§4: request a reset link (also where a ForceReset login lands, with the username filled). */
export function resetBegin(ctx: PageContext): void {
  ctx.title(t('signIn.resetBegin.title'));
  const email = typeof ctx.state?.email === 'string' ? ctx.state.email : '';
  const { el } = emailForm({
    email,
    submitLabel: t('signIn.resetBegin.submit'),
    send: async (address) => {
      await rpc('auth', 'beginResetPassword', { email: address, frontEnd: 'support' });
      emailSent(
        ctx,
        t('signIn.resetBegin.sentBefore'),
        h('strong', {}, address.trim()),
        t('signIn.resetBegin.sentAfter'),
      );
    },
  });
  ctx.show(
    h('h1', { class: 'card__title' }, t('signIn.resetBegin.title')),
    ctx.state?.forced ? banner('warning', t('signIn.resetBegin.forced')) : h('p', {}, t('signIn.resetBegin.lead')),
    el,
    backToLogIn(),
  );
}
