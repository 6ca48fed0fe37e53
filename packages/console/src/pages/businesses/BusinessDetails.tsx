import { Link as RouterLink } from 'react-router';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useBusiness } from './BusinessLayout.tsx';
import { ArchivableDetails, addressText, DetailsItem as Item, Lines, LogoImage } from './entity-parts.tsx';
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
      warning="It cannot be edited while archived, and its settings become read-only."
    >
      <dl className="details">
        <Item term="Name">{business.name}</Item>
        <Item term="Email">{business.email || '—'}</Item>
        <Item term="Address">{addressText(business.address) || '—'}</Item>
        {/* A group the user cannot open (a pharmacy user of this business alone) is left out rather
            than shown as a link to a page that would refuse them. */}
        {!business.groupId ? (
          <Item term="Group">None</Item>
        ) : (
          !group.error && (
            <Item term="Group">
              <RouterLink className="link" to={`/groups/${encodeURIComponent(business.groupId)}`}>
                {group.data?.name ?? '…'}
              </RouterLink>
            </Item>
          )
        )}
        <Item term="Keyholder mobiles">
          {business.keyholdersMobileNumbers.length > 0 ? <Lines items={business.keyholdersMobileNumbers} /> : 'None'}
        </Item>
        <Item term="Notification emails">
          {business.notificationEmails.length > 0 ? <Lines items={business.notificationEmails} /> : 'None'}
        </Item>
        <Item term="Logo">
          <LogoImage logo={business.logo} alt={`${business.name} logo`} />
        </Item>
      </dl>
      <MonthlyReportEmail business={business} />
    </ArchivableDetails>
  );
}
