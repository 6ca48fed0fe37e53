import { messages, normaliseUserCode } from '@medlocker/core';
import { useMemo, useState } from 'react';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { Dialog, DialogFooter } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';

/**
 * SPEC §4 pairing dialog: staff type the code the locker shows; success closes the dialog, a refusal
 * of the code (any 4xx but 401, 403 and 429) says 'invalid code', anything else says what happened.
 */
export function PairDialog({ machineId, onClose }: { machineId: string; onClose: (paired: boolean) => void }) {
  const [code, setCode] = useState('');
  // An object per refusal, so the same words refused twice in a row still show again (the form hides a
  // field's message once it is typed in, until it is given new messages).
  const [error, setError] = useState<{ message: string }>();
  const validationErrors = useMemo((): Record<string, string> => (error ? { userCode: error.message } : {}), [error]);
  const [pending, setPending] = useState(false);

  const pair = async () => {
    // User codes are case-insensitive, with or without the hyphen (docs/LOCKER-PROTOCOL.md §2.1): one
    // that cannot be a code at all (too long, a wrong letter) is refused here, in the same words.
    const userCode = normaliseUserCode(code);
    if (!userCode) {
      setError({ message: messages.invalidPairingCode });
      return;
    }
    setError(undefined);
    setPending(true);
    try {
      await rpc('auth', 'activateDeviceAuth', { machineId, userCode });
      onClose(true);
    } catch (e) {
      // Every refusal of the code (a wrong, used or expired code, an archived machine, the contract's own
      // checks) reads 'invalid code' (SPEC §8). A session that ended (401, which also sends the console
      // to log in), a lost scope (403), too many attempts (429) or a server that failed say so instead.
      const refused = e instanceof ApiError && e.status >= 400 && e.status < 500 && ![401, 403, 429].includes(e.status);
      setError({ message: refused ? messages.invalidPairingCode : messageOf(e) });
      setPending(false);
    }
  };

  return (
    <Dialog title={t('machines.pair.title')} isOpen onOpenChange={(open) => !open && onClose(false)}>
      <Form validationErrors={validationErrors} submit={pair}>
        <div className="dialog__body">
          <TextField
            label={t('machines.pair.code')}
            name="userCode"
            description={t('machines.pair.codeHelp')}
            value={code}
            onChange={setCode}
            autoFocus
            isRequired
            autoComplete="off"
          />
        </div>
        <DialogFooter onCancel={() => onClose(false)} pending={pending} submitLabel={t('machines.pair.submit')} />
      </Form>
    </Dialog>
  );
}
