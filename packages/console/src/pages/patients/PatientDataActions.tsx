import { rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/Dialog.tsx';
import { downloadFile } from '../../ui/download.ts';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';

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
  const downloading = useAction();
  const download = () =>
    downloading.run(async () =>
      downloadFile(await rpc('dataProtection', 'exportPatientData', { patientId: patient.id })),
    );
  return (
    <section aria-labelledby="patient-data-heading">
      <h3 id="patient-data-heading" className="section-title">
        {t('patients.data.title')}
      </h3>
      {downloading.error && <Banner tone="error">{downloading.error}</Banner>}
      <div className="button-row">
        <Button onPress={download} isPending={downloading.pending}>
          {t('patients.data.download')}
        </Button>
        <ConfirmButton
          variant="danger"
          label={t('patients.data.erase')}
          title={t('patients.data.eraseTitle')}
          cancelLabel={t('patients.data.eraseKeep')}
          confirmLabel={t('patients.data.eraseConfirm')}
          action={() => rpc('dataProtection', 'erasePatient', { patientId: patient.id })}
          onDone={onErased}
        >
          <p>{t('patients.data.eraseBody', { name: patient.name })}</p>
        </ConfirmButton>
      </div>
    </section>
  );
}
