/**
 * The locker protocol (docs/LOCKER-PROTOCOL.md): framing, actions and their payloads, pairing, timing,
 * reconnect backoff and the temperature rule. Pure: no I/O.
 */
export * from './actions.ts';
export * from './frames.ts';
export * from './live.ts';
export * from './live-push.ts';
export * from './pairing.ts';
export * from './temperature.ts';
export * from './timing.ts';
export * from './validate.ts';
