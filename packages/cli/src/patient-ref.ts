import type { Patient } from '@medlocker/core';
import type { Client } from './client.ts';

/** A patient ID as people type it: spaces and case aside ("943 476 5919" is "9434765919"). */
export const normalisedPatientId = (id: string) => id.replace(/\s+/g, '').toLowerCase();

/**
 * The internal id of the business's current patient whose Patient ID (the business's own: an NHS number,
 * a PMR number…) is `displayId`, spaces and case aside, or null: patients/list's prefix filter, then the
 * exact match. The CLI's commands take the ID the pharmacy knows; the internal id is an API detail.
 */
export async function patientIdByDisplayId(
  client: Client,
  businessId: string,
  displayId: string,
): Promise<string | null> {
  const wanted = normalisedPatientId(displayId);
  let nextToken: string | null = null;
  do {
    const page: { patients: Patient[]; nextToken: string | null } = await client.call('patients', 'list', {
      businessId,
      filter: displayId,
      onlyCurrent: true,
      limit: 200,
      ...(nextToken ? { nextToken } : {}),
    });
    const match = page.patients.find((p) => normalisedPatientId(p.displayId) === wanted);
    if (match) return match.id;
    nextToken = page.nextToken;
  } while (nextToken);
  return null;
}
