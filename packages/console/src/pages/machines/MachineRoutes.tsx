import { Route, Routes } from 'react-router';
import { EvidencePack } from './EvidencePack.tsx';
import { MachineDetails } from './MachineDetails.tsx';
import { MachineFormPage } from './MachineFormPage.tsx';
import { MachineList } from './MachineList.tsx';

/** SPEC §2 `/businesses/{businessId}/machines/*`: list, add, details and edit; and the evidence pack. */
export function MachineRoutes() {
  return (
    <Routes>
      <Route index element={<MachineList />} />
      <Route path="add" element={<MachineFormPage />} />
      <Route path=":machineId" element={<MachineDetails />} />
      <Route path=":machineId/edit" element={<MachineFormPage />} />
      <Route path=":machineId/evidence" element={<EvidencePack />} />
    </Routes>
  );
}
