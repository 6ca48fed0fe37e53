import { Route, Routes } from 'react-router';
import { RequireMethod } from '../../shell/RequireMethod.tsx';
import { EvidencePack } from './EvidencePack.tsx';
import { MachineDetails } from './MachineDetails.tsx';
import { MachineFormPage } from './MachineFormPage.tsx';
import { MachineList } from './MachineList.tsx';

/** SPEC §2 `/businesses/{businessId}/machines/*`: list, add, details and edit; and the evidence pack. */
export function MachineRoutes() {
  return (
    <Routes>
      <Route index element={<MachineList />} />
      <Route
        path="add"
        element={
          <RequireMethod method={['machines', 'createMachine']}>
            <MachineFormPage />
          </RequireMethod>
        }
      />
      <Route path=":machineId" element={<MachineDetails />} />
      <Route
        path=":machineId/edit"
        element={
          <RequireMethod method={['machines', 'updateMachine']}>
            <MachineFormPage />
          </RequireMethod>
        }
      />
      <Route path=":machineId/evidence" element={<EvidencePack />} />
    </Routes>
  );
}
