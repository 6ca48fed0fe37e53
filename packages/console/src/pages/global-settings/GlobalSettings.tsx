import { Charge, formatPence, isArkErrors, penceToAmountText } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorsOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { TextField } from '../../ui/TextField.tsx';

const useGlobalSettings = () =>
  useQuery(
    (signal) => rpc('globalSettings', 'getGlobalSettings', {}, { signal }),
    ['globalSettings', 'getGlobalSettings'],
  );

/** SPEC §2 `/globalSettings`: settings for every business, the NHS prescription charge. */
export function GlobalSettings() {
  const query = useGlobalSettings();
  const notice = useFlashNotice();
  return (
    <Page
      title="Global Settings"
      lead="Settings that apply to every business."
      actions={
        <Link href="/globalSettings/edit" variant="primary-button">
          Edit
        </Link>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <QueryView query={query}>
        {({ settings }) => (
          <dl className="details">
            <div className="details__item">
              <dt>NHS prescription charge</dt>
              <dd>
                {settings?.nhsPrescriptionCharge === undefined
                  ? 'Not set'
                  : formatPence(settings.nhsPrescriptionCharge)}
              </dd>
            </div>
          </dl>
        )}
      </QueryView>
    </Page>
  );
}

/** SPEC §2 `/globalSettings/edit`: the charge typed in pounds (at most 2 decimals), sent in pence. */
export function EditGlobalSettings() {
  const query = useGlobalSettings();
  return (
    <Page title="Edit Global Settings">
      <QueryView query={query}>{(data) => <ChargeForm pence={data.settings?.nhsPrescriptionCharge} />}</QueryView>
    </Page>
  );
}

function ChargeForm({ pence }: { pence: number | undefined }) {
  const navigate = useNavigate();
  const [amount, setAmount] = useState(pence === undefined ? '' : penceToAmountText(pence));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  const submit = async () => {
    setError(undefined);
    // Core's SPEC §5 charge rule: digits, up to 2 decimals, above 0; read as pence without float maths.
    const parsed = Charge(amount);
    if (isArkErrors(parsed)) {
      setFieldErrors({ nhsPrescriptionCharge: parsed.summary });
      return;
    }
    setFieldErrors({});
    setPending(true);
    try {
      await rpc('globalSettings', 'createOrUpdateGlobalSettings', { nhsPrescriptionCharge: parsed });
      navigate('/globalSettings', { state: { notice: 'Global settings saved.' } });
    } catch (e) {
      setPending(false);
      const { fields, form } = errorsOf(e);
      setFieldErrors(fields);
      setError(form);
    }
  };

  return (
    <Form
      className="form--page"
      error={error}
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        label="NHS prescription charge (£)"
        name="nhsPrescriptionCharge"
        inputMode="decimal"
        placeholder="9.80"
        value={amount}
        onChange={setAmount}
        description="In pounds, with at most 2 decimals, e.g. 9.80."
        isRequired
        autoFocus
      />
      <FormActions>
        <Link href="/globalSettings" variant="button">
          Cancel
        </Link>
        <Button type="submit" variant="primary" isPending={pending}>
          Save
        </Button>
      </FormActions>
    </Form>
  );
}
