import { Route, Routes } from 'react-router';
import { RequireMethod } from '../../shell/RequireMethod.tsx';
import { MachineRoutes } from '../machines/MachineRoutes.tsx';
import { MessageList } from '../messages/MessageList.tsx';
import { OrderRoutes } from '../orders/OrderRoutes.tsx';
import { PatientRoutes } from '../patients/PatientRoutes.tsx';
import { SettingsRoutes } from '../settings/SettingsRoutes.tsx';
import { BusinessStats } from '../stats/BusinessStats.tsx';
import { AddUserHere } from '../users/AddResourceUser.tsx';
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
      <Route element={<RequireMethod method={['businesses', 'createBusiness']} />}>
        <Route path="add" element={<AddBusiness />} />
      </Route>
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

/** `/businesses/{businessId}/users/add`: a Business role on this business. */
function AddBusinessUser() {
  const { business } = useBusiness();
  return <AddUserHere resource={business} reach={{ kind: 'business', id: business.id, groupId: business.groupId }} />;
}
