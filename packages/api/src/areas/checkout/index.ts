export { declareExemption } from './exemption.ts';
export { sendReceipt } from './receipt.ts';
export { completeFromWebhook, completeJudoOrderPayment, createJudoPaymentSession } from './service.ts';
