import { Link as RouterLink } from 'react-router';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { DetailsItem as Item } from '../../ui/Details.tsx';
import { useBusiness } from './BusinessLayout.tsx';
import { ArchivableDetails, addressText, Lines, LogoImage } from './entity-parts.tsx';
import { t } from './i18n/index.ts';
import { MonthlyReportEmail } from './MonthlyReportEmail.tsx';

/** SPEC §2 `/businesses/{businessId}`: the business's details, with Archive / Unarchive. */
export function BusinessDetails() {
  const { business, reload } = useBusiness();
  const group = useQuery(
    async (signal) =>
      business.groupId ? (await rpc('groups', 'getGroup', { id: business.groupId }, { signal })).group : null,
    ['groups', 'getGroup', business.groupId, 'group'],
  );
  return (
    <ArchivableDetails
      noun="business"
      name={business.name}
      archived={Boolean(business.archived)}
      setArchived={(archive) =>
        rpc('businesses', archive ? 'archiveBusiness' : 'unarchiveBusiness', { id: business.id })
      }
      archiveMethod={['businesses', 'archiveBusiness']}
      reload={reload}
      warning={t('businesses.details.archiveWarning')}
    >
      <dl className="details">
        <Item term={t('businesses.details.name')}>{business.name}</Item>
        <Item term={t('businesses.details.email')}>{business.email || '—'}</Item>
        <Item term={t('businesses.details.address')}>{addressText(business.address) || '—'}</Item>
        {/* A group the user cannot open (a pharmacy user of this business alone) is left out rather
            than shown as a link to a page that would refuse them. */}
        {!business.groupId ? (
          <Item term={t('businesses.details.group')}>{t('businesses.none')}</Item>
        ) : (
          !group.error && (
            <Item term={t('businesses.details.group')}>
              <RouterLink className="link" to={`/groups/${encodeURIComponent(business.groupId)}`}>
                {group.data?.name ?? '…'}
              </RouterLink>
            </Item>
          )
        )}
        <Item term={t('businesses.details.keyholders')}>
          {business.keyholdersMobileNumbers.length > 0 ? (
            <Lines items={business.keyholdersMobileNumbers} />
          ) : (
            t('businesses.none')
          )}
        </Item>
        <Item term={t('businesses.details.notificationEmails')}>
          {business.notificationEmails.length > 0 ? (
            <Lines items={business.notificationEmails} />
          ) : (
            t('businesses.none')
          )}
        </Item>
        <Item term={t('businesses.details.logo')}>
          <LogoImage logo={business.logo} alt={t('businesses.details.logoAlt', { name: business.name })} />
        </Item>
      </dl>
      <MonthlyReportEmail business={business} />
    </ArchivableDetails>
  );
}
