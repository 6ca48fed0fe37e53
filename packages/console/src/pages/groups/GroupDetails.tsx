import { rpc } from '../../api/client.ts';
import { DetailsItem as Item } from '../../ui/Details.tsx';
import { ArchivableDetails, LogoImage } from '../businesses/entity-parts.tsx';
import { useGroup } from './GroupLayout.tsx';
import { t } from './i18n/index.ts';

/** SPEC §2 `/groups/{groupId}`: name, email, address, logo; Archive / Unarchive with confirmation. */
export function GroupDetails() {
  const { group, reload } = useGroup();
  const a = group.address;
  return (
    <ArchivableDetails
      noun="group"
      name={group.name}
      archived={Boolean(group.archived)}
      setArchived={(archive) => rpc('groups', archive ? 'archiveGroup' : 'unarchiveGroup', { id: group.id })}
      archiveMethod={['groups', 'archiveGroup']}
      reload={reload}
    >
      <dl className="details">
        <Item term={t('groups.details.name')}>{group.name}</Item>
        <Item term={t('groups.details.email')}>{group.email || '—'}</Item>
        <Item term={t('groups.details.line1')}>{a.line1 || '—'}</Item>
        <Item term={t('groups.details.line2')}>{a.line2 || '—'}</Item>
        <Item term={t('groups.details.line3')}>{a.line3 || '—'}</Item>
        <Item term={t('groups.details.postTown')}>{a.postTown || '—'}</Item>
        <Item term={t('groups.details.postcode')}>{a.postcode || '—'}</Item>
        <Item term={t('groups.details.logo')}>
          <LogoImage logo={group.logo} alt={t('groups.details.logoAlt', { name: group.name })} />
        </Item>
      </dl>
    </ArchivableDetails>
  );
}
