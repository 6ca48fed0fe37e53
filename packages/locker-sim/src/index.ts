export { defaultApi } from './api-address.ts';
export { type Check, type ConformanceOptions, formatTable, runConformance } from './conformance/index.ts';
export { startControl } from './control.ts';
export { type LockerStatus, type LockerView, SimLocker, type SimOptions } from './locker.ts';
export { pairDevice, refreshTokens, type Tokens } from './pairing.ts';
export { DurableQueue, type QueuedEvent } from './queue.ts';
export { applyStep, loadScenario, parseStep, runScenario, type Scenario, type ScenarioStep } from './scenario.ts';
export { StateFile } from './state.ts';
export { type TemperatureMode, TemperatureModel } from './temperature.ts';
