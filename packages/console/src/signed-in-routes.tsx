import { Provider } from 'jotai';
import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { queryClient } from './api/queries.ts';
import { RequireSupport } from './shell/RequireSupport.tsx';
import { SupportOnly } from './shell/SupportOnly.tsx';
import { invalidateOnLivePush } from './state/invalidate.ts';
import { watchLiveAccess } from './state/live-access.ts';
import { store } from './state/store.ts';

// Live pushes reach the signed-in console only: they start listening when this part first loads.
watchLiveAccess(queryClient);
invalidateOnLivePush(queryClient);

// Each page (or area) loads when first visited.
const Dashboard = lazy(() => import('./pages/Dashboard.tsx').then((m) => ({ default: m.Dashboard })));
const PharmacyDashboard = lazy(() =>
  import('./pages/pharmacy-dashboard/PharmacyDashboard.tsx').then((m) => ({ default: m.PharmacyDashboard })),
);
const BusinessRoutes = lazy(() =>
  import('./pages/businesses/BusinessRoutes.tsx').then((m) => ({ default: m.BusinessRoutes })),
);
const GroupRoutes = lazy(() => import('./pages/groups/GroupRoutes.tsx').then((m) => ({ default: m.GroupRoutes })));
const AlarmMessageTemplates = lazy(() =>
  import('./pages/alarm-templates/AlarmMessageTemplates.tsx').then((m) => ({ default: m.AlarmMessageTemplates })),
);
const EditAlarmMessageTemplates = lazy(() =>
  import('./pages/alarm-templates/AlarmMessageTemplates.tsx').then((m) => ({ default: m.EditAlarmMessageTemplates })),
);
const GlobalSettings = lazy(() =>
  import('./pages/global-settings/GlobalSettings.tsx').then((m) => ({ default: m.GlobalSettings })),
);
const EditGlobalSettings = lazy(() =>
  import('./pages/global-settings/GlobalSettings.tsx').then((m) => ({ default: m.EditGlobalSettings })),
);
const SupportUsers = lazy(() => import('./pages/users/SupportUsers.tsx').then((m) => ({ default: m.SupportUsers })));
const AddUserRole = lazy(() => import('./pages/users/AddUserRole.tsx').then((m) => ({ default: m.AddUserRole })));
const NotificationList = lazy(() =>
  import('./pages/notifications/NotificationList.tsx').then((m) => ({ default: m.NotificationList })),
);
const JobList = lazy(() => import('./pages/jobs/JobList.tsx').then((m) => ({ default: m.JobList })));
const IdentityProviderList = lazy(() =>
  import('./pages/identity-providers/IdentityProviders.tsx').then((m) => ({ default: m.IdentityProviderList })),
);
const IdentityProviderDetails = lazy(() =>
  import('./pages/identity-providers/IdentityProviders.tsx').then((m) => ({ default: m.IdentityProviderDetails })),
);
const AddIdentityProvider = lazy(() =>
  import('./pages/identity-providers/IdentityProviders.tsx').then((m) => ({ default: m.AddIdentityProvider })),
);
const EditIdentityProvider = lazy(() =>
  import('./pages/identity-providers/IdentityProviders.tsx').then((m) => ({ default: m.EditIdentityProvider })),
);
const CliSignIn = lazy(() => import('./pages/cli/CliSignIn.tsx').then((m) => ({ default: m.CliSignIn })));
const Mailbox = lazy(() => import('./pages/mailbox/Mailbox.tsx').then((m) => ({ default: m.Mailbox })));
const UserDetails = lazy(() => import('./pages/users/UserDetails.tsx').then((m) => ({ default: m.UserDetails })));

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
          {/* Support staff see the whole fleet; pharmacy users their current business (issue 17). */}
          <Route element={<SupportOnly otherwise={<PharmacyDashboard />} />}>
            <Route index element={<Dashboard />} />
          </Route>
          <Route path="businesses/*" element={<BusinessRoutes />} />
          <Route path="groups/*" element={<GroupRoutes />} />
          <Route path="notifications" element={<NotificationList />} />
          <Route path="cli" element={<CliSignIn />} />
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
