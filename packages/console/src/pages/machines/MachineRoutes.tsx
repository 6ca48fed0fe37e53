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
      <Route element={<RequireMethod method={['machines', 'createMachine']} />}>
        <Route path="add" element={<MachineFormPage />} />
      </Route>
      <Route path=":machineId" element={<MachineDetails />} />
      <Route element={<RequireMethod method={['machines', 'updateMachine']} />}>
        <Route path=":machineId/edit" element={<MachineFormPage />} />
      </Route>
      <Route path=":machineId/evidence" element={<EvidencePack />} />
    </Routes>
  );
}
