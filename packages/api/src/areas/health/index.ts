export { pingDatabase } from './repository.ts';
