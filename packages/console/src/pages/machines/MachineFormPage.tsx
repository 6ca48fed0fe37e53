import { fieldErrorsOf, isArkErrors, MachineForm } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError, messageOf, type RpcOutput, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { machinePaths } from '../../paths.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';

/** SPEC §2 `/machines/add` and `/machines/{machineId}/edit`: name and number of slots (SPEC §5). */
export function MachineFormPage() {
  const { businessId = '', machineId } = useParams();
  const existing = useQuery(
    async (signal) => (machineId ? rpc('machines', 'getMachine', { id: machineId }, { signal }) : null),
    ['machines', 'getMachine', machineId],
  );
  const title = machineId ? t('machines.form.editTitle') : t('machines.form.addTitle');

  if (machineId && !existing.data) {
    return (
      <Section title={title}>
        {existing.error ? <Banner tone="error">{messageOf(existing.error)}</Banner> : <Loading />}
      </Section>
    );
  }
  const machine = existing.data?.machine;
  if (machine?.archived) {
    return (
      <Section title={title}>
        <Banner tone="warning">{t('machines.form.archived')}</Banner>
        <Link href={machinePaths.machine(businessId, machine.id)}>{t('machines.form.backToMachine')}</Link>
      </Section>
    );
  }

  return <MachineFields title={title} businessId={businessId} machine={machine} test={existing.data?.test ?? false} />;
}

type Machine = RpcOutput<'machines', 'getMachine'>['machine'];

/** Name and number of slots, checked with the server's own rules before they are sent. */
function MachineFields({
  title,
  businessId,
  machine,
  test,
}: {
  title: string;
  businessId: string;
  machine?: Machine;
  /** A QA test machine: saved through testMachines.update. */
  test: boolean;
}) {
  const navigate = useNavigate();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  const save = async (data: FormData) => {
    // The server's own rules (core's MachineForm), so a name too long is caught before it is sent.
    const form = MachineForm({
      name: String(data.get('name') ?? ''),
      numberOfSlots: String(data.get('numberOfSlots') ?? '').trim(),
      paymentsEnabled: machine?.paymentsEnabled ?? false,
    });
    if (isArkErrors(form)) {
      const local: Record<string, string> = {};
      for (const e of fieldErrorsOf(form)) if (!(e.path in local)) local[e.path] = e.message;
      setErrors(local);
      return;
    }
    setErrors({});
    setPending(true);
    setFormError(undefined);
    try {
      const saved = !machine
        ? await rpc('machines', 'createMachine', { businessId, ...form })
        : test
          ? { machine: (await rpc('testMachines', 'update', { id: machine.id, ...form })).testMachine }
          : await rpc('machines', 'updateMachine', { id: machine.id, ...form });
      navigate(machinePaths.machine(businessId, saved.machine.id), {
        state: { notice: machine ? t('machines.form.saved') : t('machines.form.added') },
      });
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length > 0) setErrors(e.fieldErrors);
      else if (e instanceof ApiError && e.status === 409) setErrors({ name: e.message });
      else setFormError(messageOf(e));
      setPending(false);
    }
  };

  return (
    <Section title={title}>
      <Form className="form--page" error={formError} validationErrors={errors} submit={save}>
        <TextField label={t('machines.form.name')} name="name" isRequired defaultValue={machine?.name} autoFocus />
        <TextField
          label={t('machines.form.slots')}
          name="numberOfSlots"
          isRequired
          inputMode="numeric"
          defaultValue={machine ? String(machine.numberOfSlots) : ''}
        />
        <FormActions>
          <Button type="submit" variant="primary" isPending={pending}>
            {machine ? t('machines.form.save') : t('machines.form.add')}
          </Button>
          <Link
            href={machine ? machinePaths.machine(businessId, machine.id) : machinePaths.list(businessId)}
            variant="button"
          >
            {t('machines.cancel')}
          </Link>
        </FormActions>
      </Form>
    </Section>
  );
}
