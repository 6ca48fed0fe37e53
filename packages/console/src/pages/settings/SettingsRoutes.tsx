import { Route, Routes } from 'react-router';
import { FeatureSettingsPage } from './FeatureSettings.tsx';
import { IntegrationSettings } from './IntegrationSettings.tsx';
import { PaymentSettingsPage } from './PaymentSettings.tsx';
import { SettingsIndex } from './SettingsIndex.tsx';
import { SmsTemplatesPage } from './SmsTemplates.tsx';

/** SPEC §2 `/businesses/{businessId}/settings` and its four pages. */
export function SettingsRoutes() {
  return (
    <Routes>
      <Route index element={<SettingsIndex />} />
      <Route path="features" element={<FeatureSettingsPage />} />
      <Route path="payment" element={<PaymentSettingsPage />} />
      <Route path="sms" element={<SmsTemplatesPage />} />
      <Route path="integration" element={<IntegrationSettings />} />
    </Routes>
  );
}
