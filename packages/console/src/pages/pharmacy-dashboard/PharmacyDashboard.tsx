import { useAtomValue } from 'jotai';
import { consolePaths } from '../../paths.ts';
import { useMyInvitations } from '../../shell/MyInvitations.tsx';
import { useCurrentBusiness } from '../../state/current-business.ts';
import { liveConnectionAtom, useLiveSubscription } from '../../state/live.ts';
import { useCurrentUser, useProductName, useSession } from '../../state/session.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { EmptyState, Loading, Page } from '../../ui/Page.tsx';
import { BagsToRemove } from '../machines/BagsToRemove.tsx';
import { OpenAlarms } from '../machines/OpenAlarms.tsx';
import { UsageTiles } from '../usage/UsageTiles.tsx';
import { t } from './i18n/index.ts';
import { MachinesGlance } from './MachinesGlance.tsx';

/**
 * `/` for pharmacy users: their current business at a glance, live: its machines with
 * their state, the bags waiting to be taken out of the lockers (cancelled or expired orders'), and its usage now (live
 * orders, occupancy per machine, machines down, messages waiting) with the usage analyses. Everything shown is an
 * api answer as it stands; nothing is totalled beyond what the answers hold.
 */
export function PharmacyDashboard() {
  const user = useCurrentUser();
  const product = useProductName();
  const session = useSession();
  const { current, isLoading, error, reload } = useCurrentBusiness();
  const connection = useAtomValue(liveConnectionAtom);
  const loginMessage = session?.loginMessage;
  const invited = useMyInvitations().data?.invitations.length ?? 0;
  // The business's pushes: machines going on- or offline, orders loaded, collected or expiring.
  useLiveSubscription(current ? { businessId: current.id } : null);

  const name = user?.givenName;
  const lead = current
    ? t(name ? 'dashboard.pharmacy.leadNamed' : 'dashboard.pharmacy.lead', { name, business: current.name })
    : t(name ? 'dashboard.pharmacy.welcomeNamed' : 'dashboard.pharmacy.welcome', { name });
  return (
    <Page title={t('dashboard.title')} lead={lead}>
      {loginMessage && <Banner tone="info">{loginMessage}</Banner>}
      {invited > 0 && (
        <Banner
          tone="info"
          action={<Link href={consolePaths.invitations}>{t('dashboard.pharmacy.reviewInvitations')}</Link>}
        >
          {t('dashboard.pharmacy.invited', { count: invited })}
        </Banner>
      )}
      {connection === 'closed' && current && <Banner tone="warning">{t('dashboard.livePaused')}</Banner>}
      {error ? (
        <LoadError error={error} onRetry={reload} />
      ) : current ? (
        <div className="glance">
          <MachinesGlance businessId={current.id} />
          <OpenAlarms businessId={current.id} />
          <BagsToRemove businessId={current.id} />
          <UsageTiles businessId={current.id} />
        </div>
      ) : isLoading ? (
        <Loading label={t('dashboard.pharmacy.loadingBusinesses')} />
      ) : (
        <EmptyState title={t('dashboard.pharmacy.noBusiness')}>
          {t('dashboard.pharmacy.noBusinessText', { product })}
        </EmptyState>
      )}
    </Page>
  );
}
