import { ApiError, messageOf } from '../api/client.ts';
import { AccessRestricted } from '../shell/AccessRestricted.tsx';
import { Banner } from './Banner.tsx';
import { Button } from './Button.tsx';
import { t } from './i18n/index.ts';

/**
 * What a page or list shows when loading it failed: the error in words, and 'Try again'. A 403 (a
 * pharmacy user on what their roles do not allow) is SPEC §2's Access Restricted in its place: trying
 * again would not help, and the rest of the console still works (docs/decisions/auth.md).
 */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (error instanceof ApiError && error.status === 403) return <AccessRestricted inShell />;
  return (
    <Banner tone="error" action={<Button onPress={onRetry}>{t('ui.tryAgain')}</Button>}>
      {messageOf(error)}
    </Banner>
  );
}
