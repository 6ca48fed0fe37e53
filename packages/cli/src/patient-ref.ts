import { patientIdByDisplayId as findPatientId, normalisedPatientId } from '@medlocker/core';
import type { Client } from './client.ts';

export { normalisedPatientId };

/**
 * The internal id of the business's current patient whose Patient ID (the business's own: an NHS number,
 * a PMR number…) is `displayId`, spaces and case aside, or null (core's lookup, shared with the console's
 * order import). The CLI's commands take the ID the pharmacy knows; the internal id is an API detail.
 */
export const patientIdByDisplayId = (client: Client, businessId: string, displayId: string): Promise<string | null> =>
  findPatientId((input) => client.call('patients', 'list', input), businessId, displayId);
