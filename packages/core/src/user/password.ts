import { type } from 'arktype';
import { limits } from '../limits.ts';
import { reject, textInput } from '../validation/rule.ts';

/** SPEC §5 password: at least 12 characters ('Please enter at least 12 characters', PASSWORD_TOO_SHORT). */
export const Password = textInput('PASSWORD_TOO_SHORT').narrow(
  (s, ctx) => s.length >= limits.passwordMinLength || reject(ctx, 'PASSWORD_TOO_SHORT'),
);
export type Password = typeof Password.infer;

/**
 * The register and reset forms: a password and its confirmation, which must match
 * ('Passwords do not match', PASSWORDS_DO_NOT_MATCH, reported on `confirmation`).
 */
export const NewPassword = type({ password: Password, confirmation: 'string' }).narrow(
  (v, ctx) =>
    v.password === v.confirmation || reject(ctx, 'PASSWORDS_DO_NOT_MATCH', undefined, [...ctx.path, 'confirmation']),
);
export type NewPassword = typeof NewPassword.infer;
