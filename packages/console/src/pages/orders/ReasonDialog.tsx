import { type ReactNode, useMemo, useState } from 'react';
import { errorsOf } from '../../api/client.ts';
import { Dialog, DialogFooter } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextArea } from '../../ui/TextArea.tsx';

export type ReasonDialogProps = {
  title: string;
  children?: ReactNode;
  /** What the reason field is called ('Reason for cancelling'). */
  label: string;
  cancelLabel: string;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
  /** Sends the reason; a refusal's messages show beside the field (SPEC §5 words from the server). */
  onConfirm: (reason: string) => Promise<void>;
  onClose: () => void;
};

/**
 * A confirmation that asks why (cancelling an order, revealing its PIN): the reason is required by the
 * contract, and the server's message for a blank or over-long one shows beside the field.
 */
export function ReasonDialog({
  title,
  children,
  label,
  cancelLabel,
  confirmLabel,
  tone = 'danger',
  onConfirm,
  onClose,
}: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [pending, setPending] = useState(false);
  // An object per refusal, so the same words refused twice still show (the form hides a field's
  // message once it is typed in, until it is given new messages).
  const [refusal, setRefusal] = useState<{ fields: Record<string, string>; form?: string }>();
  const fieldErrors = useMemo(() => ({ ...refusal?.fields }), [refusal]);

  const submit = async () => {
    setPending(true);
    setRefusal(undefined);
    try {
      await onConfirm(reason);
    } catch (e) {
      setRefusal(errorsOf(e));
      setPending(false);
    }
  };

  return (
    <Dialog title={title} isOpen role="alertdialog" onOpenChange={(open) => !open && !pending && onClose()}>
      <Form guardUnsaved={false} validationErrors={fieldErrors} error={refusal?.form} submit={submit}>
        <div className="dialog__body">
          {children}
          <TextArea label={label} name="reason" value={reason} onChange={setReason} autoFocus />
        </div>
        <DialogFooter
          onCancel={onClose}
          pending={pending}
          cancelLabel={cancelLabel}
          submitLabel={confirmLabel}
          submitVariant={tone}
        />
      </Form>
    </Dialog>
  );
}
