import { MyInvitations } from '../../shell/MyInvitations.tsx';
import { Page } from '../../ui/Page.tsx';

/**
 * `/invitations`: the signed-in user's role invitations to accept or decline (the invitation email links
 * here; docs/decisions/auth.md, Role invitations). Someone with no role yet answers them on the screen
 * that replaces Access Restricted instead.
 */
export function Invitations() {
  return (
    <Page title="Invitations" lead="Businesses and groups that have invited you. Accept to get access.">
      <MyInvitations emptyText="You have no pending invitations." />
    </Page>
  );
}
