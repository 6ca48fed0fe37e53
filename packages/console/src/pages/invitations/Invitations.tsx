import { MyInvitations } from '../../shell/MyInvitations.tsx';
import { Page } from '../../ui/Page.tsx';
import { t } from './i18n/index.ts';

/**
 * `/invitations`: the signed-in user's role invitations to accept or decline (the invitation email links
 * here; docs/decisions/auth.md, Role invitations). Someone with no role yet answers them on the screen
 * that replaces Access Restricted instead.
 */
export function Invitations() {
  return (
    <Page title={t('invitations.title')} lead={t('invitations.lead')}>
      <MyInvitations emptyText={t('invitations.empty')} />
    </Page>
  );
}
