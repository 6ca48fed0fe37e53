export { orderToMessage, recordMessageOnOrder } from './message-outcomes.ts';
