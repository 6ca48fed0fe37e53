import { Route, Routes } from 'react-router';
import { BusinessRetentionPage } from '../retention/BusinessRetention.tsx';
import { WebhookDeliveries } from '../webhooks/WebhookDeliveries.tsx';
import { WebhookDeliveryPage } from '../webhooks/WebhookDeliveryPage.tsx';
import { FeatureSettingsPage } from './FeatureSettings.tsx';
import { IntegrationSettings } from './IntegrationSettings.tsx';
import { PaymentSettingsPage } from './PaymentSettings.tsx';
import { SettingsIndex } from './SettingsIndex.tsx';
import { SmsTemplatesPage } from './SmsTemplates.tsx';

/**
 * SPEC §2 `/businesses/{businessId}/settings` and its four pages, and under the integration its
 * webhook delivery console (docs/decisions/webhooks.md).
 */
export function SettingsRoutes() {
  return (
    <Routes>
      <Route index element={<SettingsIndex />} />
      <Route path="features" element={<FeatureSettingsPage />} />
      <Route path="payment" element={<PaymentSettingsPage />} />
      <Route path="sms" element={<SmsTemplatesPage />} />
      <Route path="integration" element={<IntegrationSettings />} />
      <Route path="retention" element={<BusinessRetentionPage />} />
      <Route path="integration/webhooks" element={<WebhookDeliveries />} />
      <Route path="integration/webhooks/:deliveryId" element={<WebhookDeliveryPage />} />
    </Routes>
  );
}
