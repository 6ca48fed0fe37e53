import { Link } from '../../ui/Link.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { t } from './i18n/index.ts';
import { ReadOnlyNotice } from './settings-parts.tsx';

/** The settings pages, by path; each one's title and text are `businessSettings.index.<path>.*`. */
const pages = ['features', 'payment', 'sms', 'integration', 'retention'] as const;

/** SPEC §2 `/businesses/{businessId}/settings`: the settings pages of a business. */
export function SettingsIndex() {
  const { business } = useBusiness();
  const base = `/businesses/${encodeURIComponent(business.id)}/settings`;
  return (
    <>
      <h2 className="section-title">{t('businessSettings.title')}</h2>
      <ReadOnlyNotice archived={Boolean(business.archived)} />
      <ul className="area-cards">
        {pages.map((path) => (
          <li key={path} className="area-card">
            <Link href={`${base}/${path}`} className="area-card__title">
              {t(`businessSettings.index.${path}.title`)}
            </Link>
            <p className="area-card__text">{t(`businessSettings.index.${path}.text`)}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
