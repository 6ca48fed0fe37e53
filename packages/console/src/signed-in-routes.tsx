import { Provider } from 'jotai';
import { Navigate, Route, Routes } from 'react-router';
import { queryClient } from './api/queries.ts';
import { RequireSupport } from './shell/RequireSupport.tsx';
import { SupportOnly } from './shell/SupportOnly.tsx';
import { catchUpOnSubscribed, invalidateOnLivePush } from './state/invalidate.ts';
import { watchLiveAccess } from './state/live-access.ts';
import { store } from './state/store.ts';
import { lazyPage, lazyPages } from './ui/lazy-page.ts';

// Live pushes reach the signed-in console only: they start listening when this part first loads.
watchLiveAccess(queryClient);
invalidateOnLivePush(queryClient);
catchUpOnSubscribed(queryClient);

// Each page (or area) loads when first visited.
const Dashboard = lazyPage(() => import('./pages/Dashboard.tsx'), 'Dashboard');
const PharmacyDashboard = lazyPage(
  () => import('./pages/pharmacy-dashboard/PharmacyDashboard.tsx'),
  'PharmacyDashboard',
);
const BusinessRoutes = lazyPage(() => import('./pages/businesses/BusinessRoutes.tsx'), 'BusinessRoutes');
const GroupRoutes = lazyPage(() => import('./pages/groups/GroupRoutes.tsx'), 'GroupRoutes');
const { AlarmMessageTemplates, EditAlarmMessageTemplates } = lazyPages(
  () => import('./pages/alarm-templates/AlarmMessageTemplates.tsx'),
  'AlarmMessageTemplates',
  'EditAlarmMessageTemplates',
);
const { GlobalSettings, EditGlobalSettings } = lazyPages(
  () => import('./pages/global-settings/GlobalSettings.tsx'),
  'GlobalSettings',
  'EditGlobalSettings',
);
const SupportUsers = lazyPage(() => import('./pages/users/SupportUsers.tsx'), 'SupportUsers');
const AddUserRole = lazyPage(() => import('./pages/users/AddUserRole.tsx'), 'AddUserRole');
const NotificationList = lazyPage(() => import('./pages/notifications/NotificationList.tsx'), 'NotificationList');
const JobList = lazyPage(() => import('./pages/jobs/JobList.tsx'), 'JobList');
const AuditTrail = lazyPage(() => import('./pages/audit/AuditTrail.tsx'), 'AuditTrail');
const { IdentityProviderList, IdentityProviderDetails, AddIdentityProvider, EditIdentityProvider } = lazyPages(
  () => import('./pages/identity-providers/IdentityProviders.tsx'),
  'IdentityProviderList',
  'IdentityProviderDetails',
  'AddIdentityProvider',
  'EditIdentityProvider',
);
const CliSignIn = lazyPage(() => import('./pages/cli/CliSignIn.tsx'), 'CliSignIn');
const Mailbox = lazyPage(() => import('./pages/mailbox/Mailbox.tsx'), 'Mailbox');
const Account = lazyPage(() => import('./pages/account/Account.tsx'), 'Account');
const UserDetails = lazyPage(() => import('./pages/users/UserDetails.tsx'), 'UserDetails');
const Invitations = lazyPage(() => import('./pages/invitations/Invitations.tsx'), 'Invitations');

/**
 * SPEC §2, the console behind sign-in: every page requires a signed-in user with the support or
 * pharmacy scope (not logged in → /auth/login?from=…; neither → Access Restricted; blank names →
 * complete profile). Loaded after the sign-in pages, which need none of it, UI state (jotai) included.
 */
export function SignedInRoutes() {
  return (
    <Provider store={store}>
      <Routes>
        <Route element={<RequireSupport />}>
          {/* Support staff see the whole fleet; pharmacy users only their current business, at the same address. */}
          <Route element={<SupportOnly otherwise={<PharmacyDashboard />} />}>
            <Route index element={<Dashboard />} />
          </Route>
          <Route path="businesses/*" element={<BusinessRoutes />} />
          <Route path="groups/*" element={<GroupRoutes />} />
          <Route path="notifications" element={<NotificationList />} />
          <Route path="cli" element={<CliSignIn />} />
          <Route path="invitations" element={<Invitations />} />
          <Route path="account" element={<Account />} />
          {/* Support: every entry; pharmacy Admins: their businesses' (the api answers 403 to anyone else). */}
          <Route path="audit" element={<AuditTrail />} />
          {/* Support staff only: pharmacy users see Access Restricted here. */}
          <Route element={<SupportOnly />}>
            <Route path="users">
              <Route index element={<SupportUsers />} />
              <Route path="add" element={<Navigate to="/users/add/support" replace />} />
              <Route path="add/:role/:resource?" element={<AddUserRole />} />
              <Route path=":userId" element={<UserDetails />} />
            </Route>
            <Route path="alarmMessageTemplates" element={<AlarmMessageTemplates />} />
            <Route path="alarmMessageTemplates/edit" element={<EditAlarmMessageTemplates />} />
            <Route path="globalSettings" element={<GlobalSettings />} />
            <Route path="globalSettings/edit" element={<EditGlobalSettings />} />
            <Route path="mailbox" element={<Mailbox />} />
            <Route path="jobs" element={<JobList />} />
            <Route path="identityProviders" element={<IdentityProviderList />} />
            <Route path="identityProviders/add" element={<AddIdentityProvider />} />
            <Route path="identityProviders/:id" element={<IdentityProviderDetails />} />
            <Route path="identityProviders/:id/edit" element={<EditIdentityProvider />} />
          </Route>
        </Route>

        {/* Unknown paths redirect to the dashboard. */}
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Provider>
  );
}
