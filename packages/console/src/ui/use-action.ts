import { useState } from 'react';
import { messageOf } from '../api/client.ts';

/**
 * A call to the server behind a button or a confirmation: `pending` while it runs, the refusal in
 * words after. `run(work)` answers whether the call went through.
 */
export function useAction() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (work: () => Promise<unknown>): Promise<boolean> => {
    setPending(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (e) {
      setError(messageOf(e));
      return false;
    } finally {
      setPending(false);
    }
  };
  return { pending, error, setError, run };
}
