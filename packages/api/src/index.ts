export { type App, createApp } from './app.ts';
export { type Config, ConfigError, loadConfig } from './config/config.ts';
export type { AppDeps } from './context/deps.ts';
export { startServer } from './server.ts';
