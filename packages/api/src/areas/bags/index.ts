export { bagLeft, bagLoaded } from './locker-service.ts';
export { toBag } from './repository.ts';
export { listBags, reprocessBags } from './service.ts';
