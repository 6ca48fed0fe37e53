/** Demo seed, part 2: patients and the sign-ups waiting for a pharmacy. */
import { ADMIN_DISPLAY, addressColumns as address, DAY, type Demo } from './context.ts';
import { demoPatients } from './data.ts';

export async function seedPatients(demo: Demo): Promise<void> {
  const { tx, now } = demo;
  for (const [i, patient] of demoPatients().entries()) {
    const business = demo.businesses.get(patient.business);
    if (!business) throw new Error(`demo patient: no business ${patient.business}`);
    // Registered over the seven months before the first demo order.
    const at = now - (260 - i) * DAY;
    const id = demo.id(at);
    demo.patients.push({ id, businessId: business.id, demo: patient });
    await tx
      .insertInto('patients')
      .values({
        id,
        business_id: business.id,
        display_id: patient.nhsNumber,
        given_name: patient.givenName,
        family_name: patient.familyName,
        full_name: `${patient.givenName} ${patient.familyName}`,
        date_of_birth: patient.dateOfBirth,
        email: patient.email,
        mobile_number: patient.mobileNumber,
        ...address(patient.address),
        // one patient whose last SMS bounced, one who has been deleted
        last_sms_failure: i === 4 ? JSON.stringify({ error: 'Number not reachable', timestamp: now - 3 * DAY }) : null,
        ...(i === 11
          ? { deleted_at: now - 5 * DAY, deleted_by_id: demo.adminId, deleted_by_display: ADMIN_DISPLAY }
          : {}),
        created: at,
        updated: at,
      })
      .execute();
  }
  const harborne = demo.businesses.get('harborne');
  if (!harborne) return;
  const signUps: [string, string, string, 'new' | 'validated' | 'rejected', number][] = [
    ['Ruby', 'Clarke', '1985-02-17', 'new', 1],
    ['Alfie', 'Lewis', '1977-10-09', 'validated', 2],
    ['Poppy', 'Young', '2003-06-25', 'rejected', 6],
  ];
  for (const [i, [first, last, dob, status, daysAgo]] of signUps.entries()) {
    const at = now - daysAgo * DAY;
    await tx
      .insertInto('patient_sign_ups')
      .values({
        id: demo.id(at),
        business_id: harborne.id,
        first_name: first,
        last_name: last,
        date_of_birth: dob,
        email: `${first}.${last}@example.com`.toLowerCase(),
        mobile_number: `+447700900${500 + i}`,
        address_line1: `${40 + i} Greenfield Road`,
        address_line2: 'Harborne',
        post_town: 'Birmingham',
        postcode: 'B17 0EE',
        status,
        email_code_status: status === 'new' ? 'notChecked' : 'verified',
        mobile_code_status: status === 'new' ? 'notChecked' : 'verified',
        created: at,
        updated: at,
      })
      .execute();
  }
}
