import type { ValidationId } from './catalogue.ts';

/**
 * Lets core's rules carry their SPEC validation id as arktype meta
 * (`ctx.error({ message, meta: { validationId } })`), typed, so `fieldErrorsOf` can read it back.
 */
declare global {
  interface ArkEnv {
    meta(): { validationId?: ValidationId };
  }
}
