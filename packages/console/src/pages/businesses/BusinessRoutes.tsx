import { Navigate, Route, Routes, useParams } from 'react-router';
import { AccessRestricted } from '../../shell/AccessRestricted.tsx';
import { RequireMethod } from '../../shell/RequireMethod.tsx';
import { useAdministers } from '../../state/reach.ts';
import { useHasSupportScope } from '../../state/session.ts';
import { MachineRoutes } from '../machines/MachineRoutes.tsx';
import { MessageList } from '../messages/MessageList.tsx';
import { OrderRoutes } from '../orders/OrderRoutes.tsx';
import { PatientRoutes } from '../patients/PatientRoutes.tsx';
import { SettingsRoutes } from '../settings/SettingsRoutes.tsx';
import { BusinessStats } from '../stats/BusinessStats.tsx';
import { AddResourceUser } from '../users/AddResourceUser.tsx';
import { UserDetails } from '../users/UserDetails.tsx';
import { BusinessDetails } from './BusinessDetails.tsx';
import { AddBusiness, EditBusiness } from './BusinessForm.tsx';
import { BusinessLayout, useBusiness } from './BusinessLayout.tsx';
import { BusinessList } from './BusinessList.tsx';
import { BusinessUsers } from './BusinessUsers.tsx';

/**
 * SPEC §2 `/businesses/*`. The machines and patients pages declare their own routes here, under the
 * business layout (`machines/*`, `patients/*`); `messages` is the business's message outbox, `stats` its reports.
 */
export function BusinessRoutes() {
  return (
    <Routes>
      <Route index element={<BusinessList />} />
      <Route
        path="add"
        element={
          <RequireMethod method={['businesses', 'createBusiness']}>
            <AddBusiness />
          </RequireMethod>
        }
      />
      <Route path=":businessId" element={<BusinessLayout />}>
        <Route index element={<BusinessDetails />} />
        <Route path="edit" element={<EditBusiness />} />
        <Route path="users" element={<BusinessUsers />} />
        <Route path="users/add" element={<AddBusinessUser />} />
        <Route path="users/:userId" element={<UserDetails />} />
        <Route path="settings/*" element={<SettingsRoutes />} />
        <Route path="machines/*" element={<MachineRoutes />} />
        <Route path="orders/*" element={<OrderRoutes />} />
        <Route path="patients/*" element={<PatientRoutes />} />
        <Route path="messages" element={<MessageList />} />
        <Route path="stats" element={<BusinessStats />} />
      </Route>
    </Routes>
  );
}

/**
 * `/businesses/{businessId}/users/add`: support staff get the Add user page with a Business role on this
 * business; a pharmacy Admin adds people to this business here (the server refuses anyone else).
 */
function AddBusinessUser() {
  const { businessId = '' } = useParams();
  const { business } = useBusiness();
  const support = useHasSupportScope();
  const manages = useAdministers({ kind: 'business', id: business.id, groupId: business.groupId });
  const usersPath = `/businesses/${encodeURIComponent(businessId)}/users`;
  if (business.archived) return <Navigate to={usersPath} replace />;
  if (manages === false) return <AccessRestricted inShell />;
  if (!support) return <AddResourceUser roleName="Business" resource={business} usersPath={usersPath} />;
  return (
    <Navigate
      to={`/users/add/business/${encodeURIComponent(businessId)}`}
      replace
      state={{ resourceName: business.name, returnTo: usersPath }}
    />
  );
}
