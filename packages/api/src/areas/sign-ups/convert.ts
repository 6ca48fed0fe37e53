import { AppError } from '@medlocker/core';
import type { Service } from '../../context/method.ts';
import { checkedPatient, insertPatient, toPatient, writableBusiness } from '../patients/index.ts';
import { toSignUp, updateSignUpRow } from './repository.ts';
import { auditSignUp, requireSignUp } from './service.ts';

/*
 * A sign-up becoming a patient (staff's `signUps/convert`): the patient gets the sign-up's details,
 * checked as `patients/create` checks a form, and the language its visitor chose on the online sign-up
 * page (docs/decisions/languages.md); a staff-entered sign-up has none to give.
 */

/** Said of a sign-up with no mobile: SPEC §5 requires one of a patient, and only the sign-up can give it. */
export const noMobileToConvert = 'A patient needs a mobile number, and this sign-up has none.';

export const convert: Service<'signUps/convert'> = async (deps, actor, input) => {
  const { db, now } = deps;
  const existing = await requireSignUp(db, input.id);
  const { displayIdField } = await writableBusiness(db, existing.businessId);
  // Checked before the patient is, so the answer names the sign-up, not the patient form's empty
  // mobile field (a client showing it beside the display id it asked for would puzzle the person).
  if (existing.mobileNumber === null) {
    throw new AppError('VALIDATION', noMobileToConvert, [
      { path: 'signUp.mobileNumber', id: 'REQUIRED', message: noMobileToConvert },
    ]);
  }
  const values = checkedPatient(
    deps,
    {
      displayId: input.displayId,
      name: { given: existing.firstName, family: existing.lastName },
      mobileNumber: existing.mobileNumber,
      ...(existing.dateOfBirth ? { dateOfBirth: existing.dateOfBirth } : {}),
      ...(existing.email ? { email: existing.email } : {}),
      address: Object.fromEntries(
        Object.entries({
          line1: existing.addressLine1,
          line2: existing.addressLine2,
          line3: existing.addressLine3,
          postTown: existing.postTown,
          postcode: existing.postcode,
        }).filter(([, v]) => v !== null),
      ),
    },
    displayIdField,
  );
  return db.transaction().execute(async (tx) => {
    const current = await requireSignUp(tx, input.id, true);
    if (current.status === 'confirmed') throw new AppError('CONFLICT', 'This sign-up has already been converted');
    if (current.status === 'rejected') throw new AppError('CONFLICT', 'A rejected sign-up cannot be converted');
    const patient = await insertPatient(
      tx,
      deps,
      actor,
      current.businessId,
      values,
      displayIdField,
      'signUps.convert',
      current.language,
    );
    const signUp = await updateSignUpRow(tx, current.id, {
      status: 'confirmed',
      patientId: patient.id,
      updated: now(),
    });
    await auditSignUp(tx, deps, actor, 'signUp.convert', current, { patientId: patient.id });
    return { patient: toPatient(patient), signUp: toSignUp(signUp) };
  });
};
