export { bagLeft, bagLoaded } from './locker-service.ts';
export { countBagsToRemove, toBag } from './repository.ts';
export { listBags, listBagsToRemove, reprocessBags } from './service.ts';
