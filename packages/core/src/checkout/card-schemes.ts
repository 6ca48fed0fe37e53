import type { JudoSettings } from '../settings/payment-settings.ts';

/*
 * The card schemes a pharmacy may accept (SPEC §3 payment settings: Visa, Amex, Mastercard toggles).
 * Judopay's Web Payments request has no field to limit the schemes of one payment (the schemes a judoId
 * takes are set up on the Judopay account), so the toggles are honoured on our side: the patient page
 * lists the accepted ones, and a receipt paid with a scheme switched off does not settle the order
 * (docs/decisions/checkout.md, "Receipts, card schemes, nations, declarations").
 */

export const cardSchemes = ['visa', 'mastercard', 'amex'] as const;
export type CardScheme = (typeof cardSchemes)[number];

/** How people name each scheme. */
export const cardSchemeNames: Record<CardScheme, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
};

/** The schemes a business's Judopay settings accept, in the order a page lists them. */
export function acceptedCardSchemes(
  judo: Pick<JudoSettings, 'showVisa' | 'showMastercard' | 'showAmex'> | null | undefined,
): CardScheme[] {
  if (!judo) return [];
  return cardSchemes.filter(
    (scheme) =>
      (scheme === 'visa' && judo.showVisa) ||
      (scheme === 'mastercard' && judo.showMastercard) ||
      (scheme === 'amex' && judo.showAmex),
  );
}
