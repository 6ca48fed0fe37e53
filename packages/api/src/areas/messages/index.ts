export { messagePort } from './port.ts';
