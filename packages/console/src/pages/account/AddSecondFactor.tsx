import { useState } from 'react';
import { encode } from 'uqr';
import { rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';

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
        <strong>Your recovery codes.</strong> Keep them somewhere safe, away from your phone: each one signs you in once
        if your authenticator app or passkey is not at hand. They are not shown again.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <Button onPress={onDone}>I have saved my recovery codes</Button>
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
  const [name, setName] = useState('Authenticator app');
  const [code, setCode] = useState('');
  const { fieldErrors, error, pending, onSubmit } = useSubmit();
  const start = useSubmit();
  if (!setup) {
    return (
      <Form
        error={start.error}
        guardUnsaved={false}
        onSubmit={start.onSubmit(async () => setSetup(await rpc('auth', 'beginTotpSetup', {})))}
      >
        <SubmitOrCancel label="Show the QR code" isPending={start.pending} onCancel={onCancel} />
      </Form>
    );
  }
  return (
    <Form
      guardUnsaved={false}
      error={error}
      validationErrors={fieldErrors}
      onSubmit={onSubmit(async () => {
        const added = await rpc('auth', 'finishTotpSetup', { name, secret: setup.secret, code });
        onAdded(added.recoveryCodes);
      })}
    >
      <p>Scan this QR code with your authenticator app, or type the key below into it.</p>
      <QrCode text={setup.uri} label="QR code for your authenticator app" />
      <p>
        Key: <code data-testid="totp-secret">{setup.secret}</code>
      </p>
      <TextField
        label="Name"
        name="name"
        value={name}
        onChange={setName}
        isRequired
        description="So you can tell your factors apart."
      />
      <TextField
        label="Code from the app"
        name="code"
        value={code}
        onChange={setCode}
        isRequired
        autoComplete="one-time-code"
        inputMode="numeric"
      />
      <SubmitOrCancel label="Add authenticator app" isPending={pending} onCancel={onCancel} />
    </Form>
  );
}

/** Adds a passkey: the browser (or a security key) creates it for this site, under the name given. */
export function AddPasskey({ onAdded, onCancel }: { onAdded: (codes: string[] | null) => void; onCancel: () => void }) {
  const [name, setName] = useState('Passkey');
  const { fieldErrors, error, pending, onSubmit } = useSubmit();
  return (
    <Form
      guardUnsaved={false}
      error={error}
      validationErrors={fieldErrors}
      onSubmit={onSubmit(async () => {
        const { startRegistration } = await import('@simplewebauthn/browser');
        const { options } = await rpc('auth', 'beginPasskeySetup', {});
        const response = await startRegistration({ optionsJSON: options as never }).catch(() => {
          throw new Error('The passkey was not created. Please try again.');
        });
        const added = await rpc('auth', 'finishPasskeySetup', { name, response: response as never });
        onAdded(added.recoveryCodes);
      })}
    >
      <TextField label="Passkey name" name="name" value={name} onChange={setName} isRequired />
      <SubmitOrCancel label="Create passkey" isPending={pending} onCancel={onCancel} />
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
      <Button onPress={onCancel}>Cancel</Button>
    </FormActions>
  );
}
