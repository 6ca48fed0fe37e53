import { Route, Routes } from 'react-router';
import { ImportPatients } from './import/ImportPatients.tsx';
import { PatientDetails } from './PatientDetails.tsx';
import { PatientEdit } from './PatientEdit.tsx';
import { PatientList } from './PatientList.tsx';
import { SignUpList } from './SignUpList.tsx';

/** SPEC §2 `/businesses/{businessId}/patients/*`: list, import, sign-ups, a patient and its edit page. */
export function PatientRoutes() {
  return (
    <Routes>
      <Route index element={<PatientList />} />
      <Route path="import" element={<ImportPatients />} />
      <Route path="signUps" element={<SignUpList />} />
      <Route path=":patientId" element={<PatientDetails />} />
      <Route path=":patientId/edit" element={<PatientEdit />} />
    </Routes>
  );
}
