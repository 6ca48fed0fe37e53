import type { PatientSignUp } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { patientPaths } from '../../paths.ts';
import { signUpsPastAtom } from '../../state/patients.ts';
import { offByDefault, useUrlState } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog, DialogFooter } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { type ListColumn, ListPage, linkAction } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';
import { dateOfBirthOf } from './patient-format.ts';
import { DeleteSignUpDialog, EditSignUpDialog } from './SignUpEdit.tsx';

type SignUpHandlers = Record<'convert' | 'edit' | 'remove', (signUp: PatientSignUp) => void>;

/** Who signed up and how to reach them; Convert (while waiting), Edit and Delete until converted. */
function signUpColumns(on: SignUpHandlers): ListColumn<PatientSignUp>[] {
  return [
    {
      key: 'name',
      header: t('patients.signUps.column.name'),
      width: 'minmax(10rem, 1.5fr)',
      render: (s) => `${s.firstName} ${s.lastName}`,
    },
    {
      key: 'dob',
      header: t('patients.signUps.column.dateOfBirth'),
      width: '8rem',
      render: (s) => dateOfBirthOf(s.dateOfBirth),
    },
    {
      key: 'contact',
      header: t('patients.signUps.column.contact'),
      width: 'minmax(10rem, 1.5fr)',
      render: (s) => s.mobileNumber ?? s.email ?? t('patients.noValue'),
    },
    { key: 'status', header: t('patients.signUps.column.status'), width: '7rem', render: (s) => s.status },
    {
      key: 'actions',
      header: t('patients.signUps.column.actions'),
      width: '15rem',
      render: (s) => {
        const name = `${s.firstName} ${s.lastName}`;
        if (s.status === 'confirmed') return t('patients.noValue');
        return (
          <div className="cell-actions">
            {(s.status === 'new' || s.status === 'validated') && (
              <Button
                variant="quiet"
                onPress={() => on.convert(s)}
                aria-label={t('patients.signUps.convertLabel', { name })}
              >
                {t('patients.signUps.convert')}
              </Button>
            )}
            <Button variant="quiet" onPress={() => on.edit(s)} aria-label={t('patients.signUps.editLabel', { name })}>
              {t('patients.signUps.edit')}
            </Button>
            <Button
              variant="quiet"
              onPress={() => on.remove(s)}
              aria-label={t('patients.signUps.deleteLabel', { name })}
            >
              {t('patients.signUps.delete')}
            </Button>
          </div>
        );
      },
    },
  ];
}

/**
 * `/patients/signUps`: waiting sign-ups (or past ones). Each one not yet converted can be edited or
 * deleted; a waiting one can be converted to a patient under a display id.
 */
export function SignUpList() {
  const { businessId = '' } = useParams();
  const navigate = useNavigate();
  const [past, setPast] = useUrlState('past', signUpsPastAtom, offByDefault);
  const [converting, setConverting] = useState<PatientSignUp | null>(null);
  const [editing, setEditing] = useState<PatientSignUp | null>(null);
  const [deleting, setDeleting] = useState<PatientSignUp | null>(null);
  const [notice, setNotice] = useState<string>();
  const key = ['signUps', 'list', businessId] as const;
  /** A sign-up edited or deleted: says so above the list and reads the list again. */
  const changed = (message: string) => {
    setNotice(message);
    void queryClient.invalidateQueries({ queryKey: key });
  };

  return (
    <ListPage
      title={t('patients.signUps.title')}
      frame="section"
      reload={false}
      actions={[linkAction(t('patients.signUps.patients'), patientPaths.list(businessId), undefined, 'button')]}
      banner={notice && <Banner tone="success">{notice}</Banner>}
      filters={
        <Switch isSelected={past} onChange={setPast}>
          {t('patients.signUps.showPast')}
        </Switch>
      }
      query={rpcListQuery([...key, past], 'signUps', (_search, nextToken) => ({ businessId, past, nextToken }))}
      label={t('patients.signUps.title')}
      columns={signUpColumns({ convert: setConverting, edit: setEditing, remove: setDeleting })}
      emptyText={past ? t('patients.signUps.noPast') : t('patients.signUps.noneWaiting')}
    >
      {converting && (
        <ConvertDialog
          signUp={converting}
          onClose={(patientId) => {
            setConverting(null);
            if (patientId)
              navigate(patientPaths.patient(businessId, patientId), {
                state: { notice: t('patients.signUps.converted') },
              });
          }}
          onEdit={() => {
            setConverting(null);
            setEditing(converting);
          }}
        />
      )}
      {editing && (
        <EditSignUpDialog
          signUp={editing}
          onClose={(saved) => {
            setEditing(null);
            if (saved) changed(t('patients.signUps.saved', { name: `${saved.firstName} ${saved.lastName}` }));
          }}
        />
      )}
      {deleting && (
        <DeleteSignUpDialog
          signUp={deleting}
          onClose={(deleted) => {
            setDeleting(null);
            if (deleted) changed(t('patients.signUps.deleted', { name: `${deleting.firstName} ${deleting.lastName}` }));
          }}
        />
      )}
    </ListPage>
  );
}

/**
 * Why a conversion was refused: the display id's message goes beside the ID field; anything else (the
 * sign-up has no mobile, the business is archived) is about the sign-up, so it goes above the form.
 */
type ConvertErrors = { fields: Record<string, string>; form?: string; needsMobile?: boolean };
const noErrors: ConvertErrors = { fields: {} };

function convertErrorsOf(error: unknown): ConvertErrors {
  const { 'patient.displayId': idError, ...others } = error instanceof ApiError ? error.fieldErrors : {};
  const fields: Record<string, string> = idError ? { displayId: idError } : {};
  const about = Object.values(others);
  // Only Edit can give the sign-up a mobile, so the dialog points there.
  if ('signUp.mobileNumber' in others) return { fields, form: about.join(' '), needsMobile: true };
  if (about.length > 0) return { fields, form: about.join(' ') };
  return idError ? { fields } : { fields, form: messageOf(error) };
}

function ConvertDialog({
  signUp,
  onClose,
  onEdit,
}: {
  signUp: PatientSignUp;
  onClose: (patientId?: string) => void;
  onEdit: () => void;
}) {
  const [displayId, setDisplayId] = useState('');
  const [errors, setErrors] = useState(noErrors);
  const [pending, setPending] = useState(false);
  const convert = async () => {
    setPending(true);
    setErrors(noErrors);
    try {
      const { patient } = await rpc('signUps', 'convert', { id: signUp.id, displayId: displayId.trim() });
      onClose(patient.id);
    } catch (e) {
      setErrors(convertErrorsOf(e));
      setPending(false);
    }
  };
  return (
    <Dialog
      title={t('patients.signUps.convertTitle', { name: `${signUp.firstName} ${signUp.lastName}` })}
      isOpen
      onOpenChange={(open) => !open && onClose()}
    >
      <Form error={errors.form} validationErrors={errors.fields} submit={convert}>
        {errors.needsMobile && (
          <p className="button-row">
            {t('patients.signUps.needsMobile')}
            <Button onPress={onEdit}>{t('patients.signUps.editSignUp')}</Button>
          </p>
        )}
        <div className="dialog__body">
          <TextField
            label={t('patients.signUps.id')}
            name="displayId"
            description={t('patients.signUps.idHint')}
            value={displayId}
            onChange={setDisplayId}
            isRequired
            autoFocus
          />
        </div>
        <DialogFooter onCancel={() => onClose()} pending={pending} submitLabel={t('patients.signUps.convert')} />
      </Form>
    </Dialog>
  );
}
