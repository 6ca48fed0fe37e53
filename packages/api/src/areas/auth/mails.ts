import type { AppDeps } from '../../context/deps.ts';
import type { MailMessage } from '../../mail/mailer.ts';

/**
 * The origin for links in emails: the first PUBLIC_URL. Outside production, without one, the request's
 * own origin. Never the request's origin in production: a forged Host header would otherwise send a
 * victim a link to the attacker's site carrying the victim's reset token ("reset poisoning").
 */
export function linkOrigin(deps: Pick<AppDeps, 'config'>, site: Site): string | null {
  const configured = deps.config.publicUrls[0];
  if (configured) return configured;
  if (deps.config.production) return null;
  return site.requestOrigin;
}

/** The origin the request was sent to (its URL's), as the controller read it: only for links, see linkOrigin. */
export type Site = { requestOrigin: string };

/** The Site of an HTTP request. */
export const siteOf = (request: Request): Site => ({ requestOrigin: new URL(request.url).origin });

export type MailKind = 'reset' | 'invite' | 'register';

/**
 * The console's reset page; the token travels in the fragment, which browsers never send to servers.
 * An invited or registering person never had a password: `new=1` makes the page say "Choose your
 * password", not "Set a new password".
 */
export const resetLink = (origin: string, token: string, kind: MailKind = 'reset'): string =>
  `${origin}/auth/reset#token=${encodeURIComponent(token)}${kind === 'reset' ? '' : '&new=1'}`;

export function authMail(kind: MailKind, to: string, link: string, productName: string): MailMessage {
  const texts: Record<MailKind, { subject: string; intro: string; expiry: string }> = {
    reset: {
      subject: `Reset your ${productName} password`,
      intro: `We received a request to reset the password of your ${productName} account.`,
      expiry: 'The link works once and expires in 1 hour. If you did not ask for it, you can ignore this email.',
    },
    invite: {
      subject: `You have been given access to ${productName}`,
      intro: `An account has been set up for you on ${productName}. Choose a password to start using it.`,
      expiry: 'The link works once and expires in 24 hours. You can ask for a new one from the login page.',
    },
    register: {
      subject: `Finish setting up your ${productName} account`,
      intro: `Thank you for registering with ${productName}. Choose a password to finish setting up your account.`,
      expiry: 'The link works once and expires in 24 hours. If you did not register, you can ignore this email.',
    },
  };
  const t = texts[kind];
  return { to, subject: t.subject, text: `${t.intro}\n\n${link}\n\n${t.expiry}\n` };
}

/** The console page where a signed-in user answers their role invitations. */
export const invitationsLink = (origin: string): string => `${origin}/invitations`;

/** Tells someone who already has an account that they are invited to a business or group. */
export function invitationMail(to: string, resource: string, link: string, productName: string): MailMessage {
  return {
    to,
    subject: `You are invited to ${resource} on ${productName}`,
    text: `You have been invited to ${resource} on ${productName}. Sign in to accept or decline the invitation:\n\n${link}\n\nThe invitation expires in 14 days. If you do not know ${resource}, you can ignore this email.\n`,
  };
}

/** Tells a user that support removed their second factors (they did not necessarily ask). */
export function secondFactorsResetMail(to: string, productName: string): MailMessage {
  return {
    to,
    subject: `Your ${productName} second factors were reset`,
    text: `${productName} Support removed the passkeys, authenticator apps and recovery codes of your account, and signed you out everywhere.\n\nThe next time you sign in you may be asked to set up a new second factor.\n\nIf you did not ask for this, tell your manager or ${productName} Support at once.\n`,
  };
}
