import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { messageOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { useBusiness } from './BusinessLayout.tsx';
import { addressText, DetailsItem as Item, Lines, LogoImage } from './entity-parts.tsx';

/** SPEC §2 `/businesses/{businessId}`: the business's details, with Archive / Unarchive. */
export function BusinessDetails() {
  const { business, reload } = useBusiness();
  const notice = useFlashNotice();
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const group = useQuery(
    async (signal) =>
      business.groupId ? (await rpc('groups', 'getGroup', { id: business.groupId }, { signal })).group : null,
    [business.groupId],
  );
  const archived = Boolean(business.archived);

  const toggle = async () => {
    setPending(true);
    setError(undefined);
    try {
      await rpc('businesses', archived ? 'unarchiveBusiness' : 'archiveBusiness', { id: business.id });
      setDone(archived ? 'Business unarchived.' : 'Business archived.');
      setConfirming(false);
      reload();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setPending(false);
    }
  };

  const message = done ?? notice;
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
        <Item term="Name">{business.name}</Item>
        <Item term="Email">{business.email || '—'}</Item>
        <Item term="Address">{addressText(business.address) || '—'}</Item>
        <Item term="Group">
          {business.groupId ? (
            <RouterLink className="link" to={`/groups/${encodeURIComponent(business.groupId)}`}>
              {group.data?.name ?? (group.error ? 'restricted' : '…')}
            </RouterLink>
          ) : (
            'None'
          )}
        </Item>
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
      <ConfirmDialog
        title={archived ? 'Unarchive business?' : 'Archive business?'}
        isOpen={confirming}
        onOpenChange={(open) => !open && !pending && setConfirming(false)}
        cancelLabel="Cancel"
        confirmLabel={archived ? 'Unarchive' : 'Archive'}
        tone={archived ? 'primary' : 'danger'}
        onConfirm={() => void toggle()}
        isPending={pending}
        error={error}
      >
        <p>
          Do you want to {archived ? 'unarchive' : 'archive'} the business {business.name}?
          {archived ? '' : ' It cannot be edited while archived, and its settings become read-only.'}
        </p>
      </ConfirmDialog>
    </>
  );
}
