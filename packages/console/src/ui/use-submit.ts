import { type FormEvent, useState } from 'react';
import { errorsOf } from '../api/client.ts';

/**
 * A form sent to the API: `pending` while it goes; when the server refuses it, its messages beside the
 * fields they name (`fieldErrors`, for <Form validationErrors>) or, naming none, one for the form
 * (`error`). `onSubmit(work)` gives a <Form onSubmit> that clears both and runs `work`.
 */
export function useSubmit() {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const onSubmit = (work: () => Promise<void>) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    setFieldErrors({});
    setPending(true);
    try {
      await work();
    } catch (e) {
      const { fields, form } = errorsOf(e);
      setFieldErrors(fields);
      setError(form);
    } finally {
      setPending(false);
    }
  };
  return { fieldErrors, error, pending, onSubmit };
}
