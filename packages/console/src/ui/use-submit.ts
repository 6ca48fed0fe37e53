import { type FormEvent, useState } from 'react';
import { errorsOf } from '../api/client.ts';

/**
 * A form sent to the API: `pending` while it goes; when the server refuses it, its messages beside the
 * fields they name (`fieldErrors`, for <Form validationErrors>) or, naming none, one for the form
 * (`error`). `onSubmit(work)` gives a <Form onSubmit> that clears both and runs `work` with the form's
 * data; `formProps(work)` gives that and the messages, all a <Form> needs. `fieldName` turns the
 * server's path of a field into the form's name for it (the first message of a name wins).
 */
export function useSubmit(fieldName: (path: string) => string = (path) => path) {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const onSubmit = (work: (data: FormData) => Promise<void>) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setError(undefined);
    setFieldErrors({});
    setPending(true);
    try {
      await work(data);
    } catch (e) {
      const { fields, form } = errorsOf(e);
      const named: Record<string, string> = {};
      for (const [path, message] of Object.entries(fields)) named[fieldName(path)] ??= message;
      setFieldErrors(named);
      setError(form);
    } finally {
      setPending(false);
    }
  };
  /** A <Form>'s props for sending `work`: the form's message, the fields' messages and its onSubmit. */
  const formProps = (work: (data: FormData) => Promise<void>) => ({
    error,
    validationErrors: fieldErrors,
    onSubmit: onSubmit(work),
  });
  return { fieldErrors, error, pending, onSubmit, formProps };
}
