import { Page } from '../ui.tsx';

/** A path the patient page does not know, or an order no one can open. */
export function NotFound({ message }: { message?: string }) {
  return (
    <Page title="Page not found">
      <h1>Page not found</h1>
      <p>{message ?? 'This link is not valid. Check the message it came in, or contact your pharmacy.'}</p>
    </Page>
  );
}
