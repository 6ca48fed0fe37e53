import { toE164 } from './gateways/gateway.ts';

/** Whom a message went to, as the timeline shows it: a phone as `07••• •••123`, an email as `a•••@example.com`. */
export function maskRecipient(recipient: string): string {
  if (recipient.includes('@')) {
    const [local = '', domain = ''] = recipient.split('@');
    return `${local.slice(0, 1)}•••@${domain}`;
  }
  const e164 = toE164(recipient) ?? recipient;
  const national = e164.startsWith('+44') ? `0${e164.slice(3)}` : e164;
  return `${national.slice(0, 2)}••• •••${national.slice(-3)}`;
}

/** An SMS sender ID from the business's name when it set none: letters, digits and spaces, at most 11. */
export function senderFrom(name: string | null | undefined, senderName: string | null): string {
  if (senderName) return senderName;
  const cleaned = (name ?? '')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .trim()
    .slice(0, 11)
    .trim();
  return cleaned || 'MedLocker';
}
