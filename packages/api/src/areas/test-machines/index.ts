export { create, get, getTestMachineBags, list, remove, update } from './service.ts';
