export { patientPageLanguage, setPatientLanguage } from './language.ts';
export { getPatientOrder, listPatientOrders, patientSummaryOf } from './patient-service.ts';
export { resendOrderReadyMessage, sendOrderExpiryMessage } from './service.ts';
