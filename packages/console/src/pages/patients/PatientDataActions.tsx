import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction, confirmWords } from '../../ui/Dialog.tsx';
import { downloadFile } from '../../ui/download.ts';

/**
 * A patient's data-protection actions (docs/decisions/retention.md), for support and the business's
 * Admins (the server refuses others): everything held about them as a ZIP (a subject access request),
 * and erasure, after a confirmation.
 */
export function PatientDataActions({
  patient,
  onErased,
}: {
  patient: { id: string; name: string };
  onErased: () => void;
}) {
  const [erasing, setErasing] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string>();
  const download = async () => {
    setDownloading(true);
    setError(undefined);
    try {
      downloadFile(await rpc('dataProtection', 'exportPatientData', { patientId: patient.id }));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <section aria-labelledby="patient-data-heading">
      <h3 id="patient-data-heading" className="section-title">
        Data protection
      </h3>
      {error && <Banner tone="error">{error}</Banner>}
      <div className="button-row">
        <Button onPress={download} isPending={downloading}>
          Download patient data
        </Button>
        <Button variant="danger" onPress={() => setErasing(true)}>
          Erase patient
        </Button>
      </div>
      {erasing && (
        <ConfirmAction
          {...confirmWords('Erase', 'patient')}
          isOpen
          action={() => rpc('dataProtection', 'erasePatient', { patientId: patient.id })}
          onDone={() => {
            setErasing(false);
            onErased();
          }}
          onCancel={() => setErasing(false)}
        >
          <p>
            {patient.name}&apos;s name, contact details and address will be removed for good, and their orders kept
            without them for the monthly figures. Partners&apos; systems are told. This cannot be undone.
          </p>
        </ConfirmAction>
      )}
    </section>
  );
}
