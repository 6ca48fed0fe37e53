import { t } from '../i18n/index.ts';
import { Page } from '../ui.tsx';

/** A path the patient page does not know, or an order no one can open. */
export function NotFound({ message }: { message?: string }) {
  return (
    <Page title={t('notFound.title')}>
      <h1>{t('notFound.title')}</h1>
      <p>{message ?? t('notFound.text')}</p>
    </Page>
  );
}
