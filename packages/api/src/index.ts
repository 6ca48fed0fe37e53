export { type App, createApp } from './app.ts';
export { type Config, ConfigError, loadConfig } from './config.ts';
export type { AppDeps } from './deps.ts';
export { startServer } from './server.ts';
