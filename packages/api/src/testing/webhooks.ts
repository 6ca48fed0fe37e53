import type { TestApi } from './api.ts';
import { asSupport } from './hub.ts';

/** Business b1's integration client ("Example PMR", contact support@pmr.example), as support saves it. */
export const saveTestIntegrationClient = (t: TestApi, webhookUrl: string | null) =>
  t.call(
    'integration',
    'createOrUpdateIntegrationClient',
    {
      businessId: 'b1',
      name: 'Example PMR',
      contactEmail: 'support@pmr.example',
      suppressPatientMessages: false,
      webhookUrl,
      rateLimit: 1200,
    },
    asSupport,
  );
