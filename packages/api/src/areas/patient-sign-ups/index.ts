export { business, create, get, resendCodes, verify } from './service.ts';
