import { rpc } from '../../api/client.ts';
import { ArchivableDetails, DetailsItem as Item, LogoImage } from '../businesses/entity-parts.tsx';
import { useGroup } from './GroupLayout.tsx';

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
        <Item term="Name">{group.name}</Item>
        <Item term="Email">{group.email || '—'}</Item>
        <Item term="Address line 1">{a.line1 || '—'}</Item>
        <Item term="Address line 2">{a.line2 || '—'}</Item>
        <Item term="Address line 3">{a.line3 || '—'}</Item>
        <Item term="Post town">{a.postTown || '—'}</Item>
        <Item term="Postcode">{a.postcode || '—'}</Item>
        <Item term="Logo">
          <LogoImage logo={group.logo} alt={`${group.name} logo`} />
        </Item>
      </dl>
    </ArchivableDetails>
  );
}
