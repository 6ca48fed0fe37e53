export {
  addressOf,
  findBusinessForPatients,
  findCurrentPatientByDisplayId,
  findPatient,
  findPatientLanguage,
  mobilePrefixOf,
  toPatient,
} from './repository.ts';
export { displayIdFieldOf } from './rules.ts';
export { indexPendingSearch, SEARCH_INDEX_JOB } from './search-index-repository.ts';
export {
  batchGet,
  batchUpsertPatients,
  checkedPatient,
  create,
  get,
  insertPatient,
  list,
  remove,
  update,
  writableBusiness,
} from './service.ts';
export { addWhatsAppOptIn, removeWhatsAppOptIn, verifyWhatsAppOptInMessage } from './whatsapp.ts';
export { findWhatsAppOptIn } from './whatsapp-repository.ts';
