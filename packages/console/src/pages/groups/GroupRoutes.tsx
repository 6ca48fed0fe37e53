import { Navigate, Route, Routes, useParams } from 'react-router';
import { RequireMethod } from '../../shell/RequireMethod.tsx';
import { SupportOnly } from '../../shell/SupportOnly.tsx';
import { AddUserHere } from '../users/AddResourceUser.tsx';
import { UserDetails } from '../users/UserDetails.tsx';
import { GroupBusinesses } from './GroupBusinesses.tsx';
import { GroupDetails } from './GroupDetails.tsx';
import { AddGroup, EditGroup } from './GroupForm.tsx';
import { GroupLayout, useGroup } from './GroupLayout.tsx';
import { GroupList } from './GroupList.tsx';
import { GroupStats } from './GroupStats.tsx';
import { GroupUsers } from './GroupUsers.tsx';

/** SPEC §2 `/groups/*`. */
export function GroupRoutes() {
  return (
    <Routes>
      {/* The list is support's page for creating and editing groups (SPEC §2's banner says so): a
          pharmacy user opens their group from their business instead. */}
      <Route element={<SupportOnly />}>
        <Route index element={<GroupList />} />
      </Route>
      <Route element={<RequireMethod method={['groups', 'createGroup']} />}>
        <Route path="add" element={<AddGroup />} />
      </Route>
      <Route path=":groupId" element={<GroupLayout />}>
        <Route index element={<GroupDetails />} />
        <Route path="edit" element={<EditGroup />} />
        <Route path="businesses" element={<GroupBusinesses />} />
        <Route path="businesses/:businessId/*" element={<ToBusiness />} />
        <Route path="users" element={<GroupUsers />} />
        <Route path="users/add" element={<AddGroupUser />} />
        <Route path="users/:userId" element={<UserDetails />} />
        <Route path="stats" element={<GroupStats />} />
      </Route>
    </Routes>
  );
}

/** `/groups/{groupId}/businesses/{businessId}/…`: the business's own pages. */
function ToBusiness() {
  const { businessId = '', '*': rest = '' } = useParams();
  return <Navigate to={`/businesses/${encodeURIComponent(businessId)}${rest ? `/${rest}` : ''}`} replace />;
}

/** `/groups/{groupId}/users/add`: a Group role on this group. */
function AddGroupUser() {
  const { group } = useGroup();
  return <AddUserHere resource={group} reach={{ kind: 'group', id: group.id }} />;
}
