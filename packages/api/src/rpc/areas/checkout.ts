import { linkOrigin, siteOf } from '../../areas/auth/index.ts';
import {
  completeJudoOrderPayment,
  createJudoPaymentSession,
  declareExemption,
  sendReceipt,
} from '../../areas/checkout/index.ts';
import { patientSummaryOf } from '../../areas/patient-orders/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/**
 * `POST /api/checkout/*`: the patient of a patient session paying for, or declaring an exemption on, their
 * own order (the access layer refuses anyone else's with 404); its receipt, for the patient or staff. Judopay sends the browser back to the
 * order's own patient page, on this site: the return address is never the client's to choose.
 */
export const checkoutRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'checkout', {
    createJudoPaymentSession: (deps, actor, input, http) => {
      const origin = linkOrigin(deps, siteOf(http.request));
      const back = origin === null ? undefined : `${origin}/p/${encodeURIComponent(input.orderId)}`;
      return createJudoPaymentSession(deps, actor, input, back ? { successUrl: back, cancelUrl: back } : {});
    },
    completeJudoOrderPayment: async (deps, actor, input) => {
      const done = await completeJudoOrderPayment(deps, actor, input);
      return { order: patientSummaryOf(done.order, deps.now()), outcome: done.outcome, changed: done.changed };
    },
    sendReceipt: async (deps, actor, input) => {
      const sent = await sendReceipt(deps, actor, input);
      return { order: patientSummaryOf(sent.order, deps.now()), channel: sent.channel, sentTo: sent.sentTo };
    },
    declareExemption: async (deps, actor, input) => {
      const { order } = await declareExemption(deps, actor, input);
      return { order: patientSummaryOf(order, deps.now()) };
    },
  });
