export * from './contract/index.ts';
export * from './errors/app-error.ts';
export * from './validation/field-errors.ts';
