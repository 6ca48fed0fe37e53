import { messages } from '@medlocker/core';
import { useState } from 'react';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';

/**
 * SPEC §4 pairing dialog: staff type the code the locker shows; success closes the dialog,
 * anything else says 'invalid code'.
 */
export function PairDialog({ machineId, onClose }: { machineId: string; onClose: (paired: boolean) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  const pair = async () => {
    setPending(true);
    setError(undefined);
    try {
      await rpc('auth', 'activateDeviceAuth', { machineId, userCode: code.trim() });
      onClose(true);
    } catch (e) {
      setError(
        e instanceof ApiError && e.code === 'VALIDATION'
          ? (e.fieldErrors.userCode ?? messages.invalidPairingCode)
          : messageOf(e),
      );
      setPending(false);
    }
  };

  return (
    <Dialog title="Pair machine" isOpen onOpenChange={(open) => !open && onClose(false)}>
      <Form
        validationErrors={error ? { userCode: error } : {}}
        onSubmit={(event) => {
          event.preventDefault();
          void pair();
        }}
      >
        <div className="dialog__body">
          <TextField
            label="Code"
            name="userCode"
            description="The code the locker shows on its screen, e.g. KDNV-QXRT."
            value={code}
            onChange={setCode}
            autoFocus
            isRequired
            autoComplete="off"
          />
        </div>
        <div className="dialog__actions">
          <Button onPress={() => onClose(false)} isDisabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" isPending={pending}>
            Pair
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
