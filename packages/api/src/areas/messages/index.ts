export { messagePort } from './port.ts';
export { listOutbox } from './service.ts';
