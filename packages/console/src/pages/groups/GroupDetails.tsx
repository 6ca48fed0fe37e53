import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { DetailsItem as Item, LogoImage } from '../businesses/entity-parts.tsx';
import { useGroup } from './GroupLayout.tsx';

/** SPEC §2 `/groups/{groupId}`: name, email, address, logo; Archive / Unarchive with confirmation. */
export function GroupDetails() {
  const { group, reload } = useGroup();
  const notice = useFlashNotice();
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const archived = Boolean(group.archived);
  const verb = archived ? 'unarchive' : 'archive';

  const toggle = async () => {
    setPending(true);
    setError(undefined);
    try {
      await rpc('groups', archived ? 'unarchiveGroup' : 'archiveGroup', { id: group.id });
      setDone(archived ? 'Group unarchived.' : 'Group archived.');
      setConfirming(false);
      reload();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setPending(false);
    }
  };

  const message = done ?? notice;
  const a = group.address;
  return (
    <>
      {message && <Banner tone="success">{message}</Banner>}
      <div className="section-head">
        <h2 className="section-title">Details</h2>
        <Button
          variant={archived ? 'secondary' : 'danger'}
          onPress={() => {
            setError(undefined);
            setConfirming(true);
          }}
        >
          {archived ? 'Unarchive' : 'Archive'}
        </Button>
      </div>
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
      <ConfirmDialog
        title={archived ? 'Unarchive group?' : 'Archive group?'}
        isOpen={confirming}
        onOpenChange={(open) => !open && !pending && setConfirming(false)}
        cancelLabel="Cancel"
        confirmLabel={archived ? 'Unarchive' : 'Archive'}
        tone={archived ? 'primary' : 'danger'}
        onConfirm={() => void toggle()}
        isPending={pending}
        error={error}
      >
        <p>{`Do you want to ${verb} the group ${group.name}?`}</p>
      </ConfirmDialog>
    </>
  );
}
