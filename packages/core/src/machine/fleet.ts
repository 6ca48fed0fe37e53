import { Timestamp } from '../stamps.ts';
import { Machine } from './machine.ts';

/**
 * What the dashboard shows of a machine: who and where it is, whether it is connected, out of order or
 * out of its temperature band. `temperatureStatus.readings` is empty here (the machine page has them).
 */
export const FleetMachine = Machine.pick('id', 'businessId', 'name', 'outOfOrderStatus', 'temperatureStatus').and({
  businessName: 'string',
  online: 'boolean',
  lastSeen: Timestamp.or('null'),
});
export type FleetMachine = typeof FleetMachine.infer;
