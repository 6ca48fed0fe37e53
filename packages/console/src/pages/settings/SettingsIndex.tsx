import { Link } from '../../ui/Link.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { ReadOnlyNotice } from './settings-parts.tsx';

const pages = [
  {
    path: 'features',
    title: 'Features',
    text: 'Charges, barcodes, patient ID, online sign-ups, SMS sender and gateway.',
  },
  { path: 'payment', title: 'Payment', text: 'Contact number, legal information and the card payment provider.' },
  { path: 'sms', title: 'SMS templates', text: 'The wording of the eight messages patients receive, with a preview.' },
  {
    path: 'integration',
    title: 'Integration',
    text: 'The connection to a patient-record system: client secret, webhook and QR signing key.',
  },
  {
    path: 'retention',
    title: 'Retention',
    text: 'How long orders, patients, readings, audit entries and delivery attempts are kept.',
  },
] as const;

/** SPEC §2 `/businesses/{businessId}/settings`: the settings pages of a business. */
export function SettingsIndex() {
  const { business } = useBusiness();
  const base = `/businesses/${encodeURIComponent(business.id)}/settings`;
  return (
    <>
      <h2 className="section-title">Settings</h2>
      <ReadOnlyNotice archived={Boolean(business.archived)} />
      <ul className="area-cards">
        {pages.map((p) => (
          <li key={p.path} className="area-card">
            <Link href={`${base}/${p.path}`} className="area-card__title">
              {p.title}
            </Link>
            <p className="area-card__text">{p.text}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
