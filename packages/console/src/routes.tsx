import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Login } from './pages/auth/Login.tsx';
import { Register } from './pages/auth/Register.tsx';
import { Reset } from './pages/auth/Reset.tsx';
import { ResetBegin } from './pages/auth/ResetBegin.tsx';
import { ToLogin } from './pages/auth/ToLogin.tsx';
import { AuthLayout } from './shell/AuthLayout.tsx';
import { RequireSupport } from './shell/RequireSupport.tsx';
import { SupportOnly } from './shell/SupportOnly.tsx';

// The sign-in pages come with the first download; the console's pages load when first visited.
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

/** The console's URLs (SPEC §2), for links built outside the route table. */
export const consolePaths = {
  login: '/auth/login',
  register: '/auth/register',
  resetBegin: '/auth/reset/begin',
  reset: '/auth/reset',
  dashboard: '/',
  businesses: '/businesses',
  business: (id: string) => `/businesses/${encodeURIComponent(id)}`,
  groups: '/groups',
  group: (id: string) => `/groups/${encodeURIComponent(id)}`,
  users: '/users',
  addUser: (role: string, resource?: string) =>
    `/users/add/${encodeURIComponent(role)}${resource ? `/${encodeURIComponent(resource)}` : ''}`,
  user: (id: string) => `/users/${encodeURIComponent(id)}`,
  alarmMessageTemplates: '/alarmMessageTemplates',
  globalSettings: '/globalSettings',
} as const;

/** SPEC §2, screens and routes. */
export function AppRoutes() {
  return (
    <Routes>
      {/* Auth routes: open to everyone. Any other /auth path goes to login, keeping the origin. */}
      <Route path="auth" element={<AuthLayout />}>
        <Route path="login" element={<Login />} />
        <Route path="register" element={<Register />} />
        <Route path="reset/begin" element={<ResetBegin />} />
        <Route path="reset" element={<Reset />} />
        <Route index element={<ToLogin />} />
        <Route path="*" element={<ToLogin />} />
      </Route>

      {/* Everything else requires a signed-in user with the support or pharmacy scope: not logged
          in → /auth/login?from=…; neither → Access Restricted; blank names → complete profile. */}
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
  );
}
