import { type } from 'arktype';
import { Order } from '../order/order.ts';
import { qrCodeMaxLength } from '../order/qr-code.ts';
import { Required } from '../validation/general.ts';
import { Id, upTo } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';
import { byBusinessId } from './method-builders.ts';

/*
 * QR-code orders (docs/decisions/orders.md "QR-code orders"): a business with `qrCodeIntegration` on
 * has a QR signing key its pharmacy system signs bag QR codes with (core's order/qr-code.ts). The key
 * is kept sealed, shown in full once when made (like an integration secret), and made again at will.
 */

/** When the business's key was made and by whom, or null: never the key itself. */
const KeyInfo = type({ created: 'number', createdBy: 'string' }).or('null');

export const qrCodes = defineArea({
  createOrder: {
    input: type({ businessId: Id, qrCode: upTo(qrCodeMaxLength, Required) }),
    output: type({ order: Order, existing: 'boolean' }),
    access: staff({ business: 'businessId' }),
    summary:
      "Creates the order a scanned bag QR code signed with the business's key names (createdVia qr-code); the live order it made before when scanned again (existing true).",
  },
  getSigningKey: byBusinessId({
    output: type({ key: KeyInfo }),
    access: staff({ business: 'businessId' }, true),
    summary: "When the business's QR signing key was made, and by whom (null: none yet); never the key.",
  }),
  rotateSigningKey: byBusinessId({
    output: type({ key: 'string', created: 'number' }),
    access: staff({ business: 'businessId' }, true),
    summary: 'Makes a new QR signing key and returns it once; codes signed with the old one stop working.',
  }),
});
