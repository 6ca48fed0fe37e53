import { useState } from 'react';
import { encode } from 'uqr';
import { rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { TextField, textFieldsOf } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';
import { t } from './i18n/index.ts';

/** A QR code drawn as SVG squares (uqr encodes; nothing leaves the page). */
function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { border: 2 });
  const squares = data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : ''))).join('');
  return (
    <svg viewBox={`0 0 ${size} ${size}`} width={size * 5} height={size * 5} role="img" aria-label={label}>
      <rect width={size} height={size} fill="#fff" />
      <path d={squares} fill="#000" />
    </svg>
  );
}

/** Recovery codes, shown once: each signs in once when the phone or key is not at hand. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Banner tone="warning">
      <p>
        <strong>{t('account.codes.title')}</strong> {t('account.codes.text')}
      </p>
      <ul className="recovery-codes" aria-label={t('account.codes.label')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <Button onPress={onDone}>{t('account.codes.saved')}</Button>
    </Banner>
  );
}

/**
 * Adds an authenticator app: a new secret from the server, as a QR code and as text to type, then a name
 * and the code the app shows (proving it was set up right before anything is stored).
 */
export function AddAuthenticatorApp({
  onAdded,
  onCancel,
}: {
  onAdded: (codes: string[] | null) => void;
  onCancel: () => void;
}) {
  const [setup, setSetup] = useState<{ secret: string; uri: string }>();
  const [texts, setTexts] = useState(() => ({ name: t('account.factors.totp'), code: '' }));
  const text = textFieldsOf(texts, setTexts);
  const { pending, formProps } = useSubmit();
  const start = useSubmit();
  if (!setup) {
    return (
      <Form
        error={start.error}
        guardUnsaved={false}
        onSubmit={start.onSubmit(async () => setSetup(await rpc('auth', 'beginTotpSetup', {})))}
      >
        <SubmitOrCancel label={t('account.totp.start')} isPending={start.pending} onCancel={onCancel} />
      </Form>
    );
  }
  return (
    <Form
      guardUnsaved={false}
      {...formProps(async () => {
        const added = await rpc('auth', 'finishTotpSetup', { ...texts, secret: setup.secret });
        onAdded(added.recoveryCodes);
      })}
    >
      <p>{t('account.totp.scan')}</p>
      <QrCode text={setup.uri} label={t('account.totp.qr')} />
      <p>
        {t('account.totp.key')} <code data-testid="totp-secret">{setup.secret}</code>
      </p>
      <TextField label={t('account.totp.name')} isRequired description={t('account.totp.nameHint')} {...text('name')} />
      <TextField
        label={t('account.totp.code')}
        isRequired
        autoComplete="one-time-code"
        inputMode="numeric"
        {...text('code')}
      />
      <SubmitOrCancel label={t('account.totp.submit')} isPending={pending} onCancel={onCancel} />
    </Form>
  );
}

/** Adds a passkey: the browser (or a security key) creates it for this site, under the name given. */
export function AddPasskey({ onAdded, onCancel }: { onAdded: (codes: string[] | null) => void; onCancel: () => void }) {
  const [name, setName] = useState(() => t('account.factors.passkey'));
  const { pending, formProps } = useSubmit();
  return (
    <Form
      guardUnsaved={false}
      {...formProps(async () => {
        const { startRegistration } = await import('@simplewebauthn/browser');
        const { options } = await rpc('auth', 'beginPasskeySetup', {});
        const response = await startRegistration({ optionsJSON: options as never }).catch(() => {
          throw new Error(t('account.passkey.notCreated'));
        });
        const added = await rpc('auth', 'finishPasskeySetup', { name, response: response as never });
        onAdded(added.recoveryCodes);
      })}
    >
      <TextField label={t('account.passkey.name')} name="name" value={name} onChange={setName} isRequired />
      <SubmitOrCancel label={t('account.passkey.submit')} isPending={pending} onCancel={onCancel} />
    </Form>
  );
}

/** The form's submit button, and Cancel to close it unsaved. */
function SubmitOrCancel({ label, isPending, onCancel }: { label: string; isPending: boolean; onCancel: () => void }) {
  return (
    <FormActions>
      <Button type="submit" variant="primary" isPending={isPending}>
        {label}
      </Button>
      <Button onPress={onCancel}>{t('account.form.cancel')}</Button>
    </FormActions>
  );
}
