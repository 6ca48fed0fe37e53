export {
  enableEndpoint,
  getDelivery,
  getEndpoint,
  listDeliveries,
  replayDelivery,
  replayFailed,
  sendTestEvent,
} from './service.ts';
