import { type } from 'arktype';
import { validationMessages } from '../validation/catalogue.ts';

/** The NHS prescription charge exemption codes a patient may declare (SPEC §5). */
export const exemptionCodes = ['A', 'B', 'D', 'E', 'F', 'G', 'L', 'H', 'K', 'M', 'S', 'U', 'W'] as const;

/**
 * SPEC §5 exemption code: `ExemptionCode('A')` → 'A', or errors whose summary is 'Invalid exemption
 * code' (INVALID_EXEMPTION_CODE). Case matters: the codes are printed capitals on the FP10 form.
 */
export const ExemptionCode = type.enumerated(...exemptionCodes).configure({
  message: validationMessages.INVALID_EXEMPTION_CODE,
  validationId: 'INVALID_EXEMPTION_CODE',
});
export type ExemptionCode = typeof ExemptionCode.infer;
