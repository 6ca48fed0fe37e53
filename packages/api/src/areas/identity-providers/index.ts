export { create, get, list, remove, test, update } from './service.ts';
