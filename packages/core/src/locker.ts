/**
 * What a locker's own software needs of core (`@medlocker/core/locker`): the locker protocol, the
 * catalogue of machine alerts and their levels, the alarms a locker counts as critical, and signed QR
 * codes. A locker (the simulator, its conformance run) imports this alone: core's index also builds
 * every RPC method's schemas, 1.5–2 s of CPU at each start that a locker never uses.
 */
export * from './errors/levels.ts';
export * from './errors/machine-alerts.ts';
export * from './machine/alarm-rules.ts';
export * from './order/qr-code.ts';
export * from './protocol/index.ts';
