export { bulkUpdate, exportOrders, listOrderIds } from './service.ts';
