import { useState } from 'react';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { t } from './i18n/index.ts';

/**
 * SPEC §4: a new secret, shown in full this once with a Copy button. After Done (or leaving the
 * page) only its masked form is ever shown again.
 */
export function SecretReveal({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string>();
  return (
    <Banner
      tone="warning"
      title={t('businessSettings.secret.title', { label })}
      action={
        <Button variant="quiet" onPress={onDone}>
          {t('businessSettings.secret.done')}
        </Button>
      }
    >
      <p>{t('businessSettings.secret.once')}</p>
      <div className="secret">
        <code className="secret__value">{secret}</code>
        <Button
          onPress={() => {
            navigator.clipboard.writeText(secret).then(
              () => setCopied(t('businessSettings.secret.copied')),
              () => setCopied(t('businessSettings.secret.copyFailed')),
            );
          }}
        >
          {t('businessSettings.secret.copy')}
        </Button>
      </div>
      {copied && <p role="status">{copied}</p>}
    </Banner>
  );
}
