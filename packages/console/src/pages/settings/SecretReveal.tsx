import { useState } from 'react';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';

/**
 * SPEC §4: a new secret, shown in full this once with a Copy button. After Done (or leaving the
 * page) only its masked form is ever shown again.
 */
export function SecretReveal({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string>();
  return (
    <Banner
      tone="warning"
      title={`Your new ${label}`}
      action={
        <Button variant="quiet" onPress={onDone}>
          Done
        </Button>
      }
    >
      <p>Copy it now: it will not be shown again.</p>
      <div className="secret">
        <code className="secret__value">{secret}</code>
        <Button
          onPress={() => {
            navigator.clipboard.writeText(secret).then(
              () => setCopied('Copied.'),
              () => setCopied('Could not copy: select the text and copy it.'),
            );
          }}
        >
          Copy
        </Button>
      </div>
      {copied && <p role="status">{copied}</p>}
    </Banner>
  );
}
