import { errorsOf, rpc } from './api.ts';
import type { PageContext } from './context.ts';
import { banner, button, type Field, field, form, h, link } from './dom.ts';

/** "Check your email": what was sent, and the way back to log in. */
function emailSent(ctx: PageContext, ...message: (Node | string)[]): void {
  ctx.show(h('h1', { class: 'card__title' }, 'Check your email'), banner('success', ...message), backToLogIn());
}

const backToLogIn = () => h('p', { class: 'auth__links' }, link('/auth/login', 'Back to log in'));

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
    label: 'Email address',
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
  ctx.title('Register');
  const givenName = field({ label: 'First name', name: 'givenName', autocomplete: 'given-name' });
  const familyName = field({ label: 'Surname', name: 'familyName', autocomplete: 'family-name' });
  const closed = h('div', {});
  const { el, submit } = emailForm({
    email: '',
    more: [givenName, familyName],
    submitLabel: 'Register',
    send: async (email) => {
      await rpc('auth', 'register', {
        email,
        givenName: givenName.input.value,
        familyName: familyName.input.value,
        frontEnd: 'support',
      });
      emailSent(
        ctx,
        'We have sent an email to ',
        h('strong', {}, email.trim()),
        '. Follow the link in it to set your password.',
      );
    },
  });
  ctx.show(h('h1', { class: 'card__title' }, 'Register'), closed, el, backToLogIn());
  ctx.withConfig((config) => {
    submit.disabled = !config.allowRegistration;
    closed.replaceChildren(
      ...(config.allowRegistration
        ? []
        : [banner('info', `Registration is not open. Please ask ${config.productName} Support for an account.`)]),
    );
  });
}

/** SPEC §2/§4: request a reset link (also where a ForceReset login lands, with the username filled). */
export function resetBegin(ctx: PageContext): void {
  ctx.title('Reset your password');
  const email = typeof ctx.state?.email === 'string' ? ctx.state.email : '';
  const { el } = emailForm({
    email,
    submitLabel: 'Send reset link',
    send: async (address) => {
      await rpc('auth', 'beginResetPassword', { email: address, frontEnd: 'support' });
      emailSent(
        ctx,
        'If there is an account for ',
        h('strong', {}, address.trim()),
        ', we have sent it an email with a link to reset the password. The link works once, for one hour.',
      );
    },
  });
  ctx.show(
    h('h1', { class: 'card__title' }, 'Reset your password'),
    ctx.state?.forced
      ? banner('warning', 'You need to set a new password before you can log in.')
      : h('p', {}, 'Enter your email address and we will send you a link to set a new password.'),
    el,
    backToLogIn(),
  );
}
