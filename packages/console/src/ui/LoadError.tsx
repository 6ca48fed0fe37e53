import { messageOf } from '../api/client.ts';
import { Banner } from './Banner.tsx';
import { Button } from './Button.tsx';

/** What a page or list shows when loading it failed: the error in words, and 'Try again'. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Banner tone="error" action={<Button onPress={onRetry}>Try again</Button>}>
      {messageOf(error)}
    </Banner>
  );
}
