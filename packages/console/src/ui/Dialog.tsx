import { type ReactNode, useState } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button, type ButtonProps } from './Button.tsx';
import { t } from './i18n/index.ts';
import { useAction } from './use-action.ts';

export type DialogProps = {
  title: ReactNode;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  children: ReactNode;
  /** alertdialog for confirmations: focus lands on the safe button, Escape keeps things as they are. */
  role?: 'dialog' | 'alertdialog';
  isDismissable?: boolean;
};

/** A modal dialog with a heading; focus is trapped inside and returns to the trigger on close. */
export function Dialog({ title, isOpen, onOpenChange, children, role = 'dialog', isDismissable = true }: DialogProps) {
  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} onOpenChange={onOpenChange} isDismissable={isDismissable}>
      <Modal className="modal">
        <AriaDialog className="dialog" role={role}>
          <Heading slot="title" className="dialog__title">
            {title}
          </Heading>
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

/**
 * The foot of a dialog: its error, read out when it appears, then the buttons: the way out (off while
 * `pending`; first in focus with `autoFocus`, as confirmations want), `children`, and the way on: the
 * form's submit button when `submitLabel` is given (`submitVariant`, primary unless said).
 */
export function DialogFooter({
  error,
  cancelLabel = t('ui.cancel'),
  onCancel,
  pending,
  autoFocus,
  submitLabel,
  submitVariant = 'primary',
  children,
}: {
  error?: ReactNode;
  cancelLabel?: string;
  onCancel: () => void;
  pending?: boolean | undefined;
  autoFocus?: boolean;
  submitLabel?: string;
  submitVariant?: ButtonProps['variant'];
  children?: ReactNode;
}) {
  return (
    <>
      {error && (
        <p className="dialog__error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog__actions">
        <Button autoFocus={autoFocus} onPress={onCancel} isDisabled={pending}>
          {cancelLabel}
        </Button>
        {children}
        {submitLabel && (
          <Button type="submit" variant={submitVariant} isPending={pending}>
            {submitLabel}
          </Button>
        )}
      </div>
    </>
  );
}

export type ConfirmDialogProps = {
  title: string;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  children?: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  onConfirm: () => void;
  isPending?: boolean;
  tone?: 'danger' | 'primary';
  error?: ReactNode;
};

/** 'Remove role?' with Keep role / Remove role, and the like. */
export function ConfirmDialog({
  title,
  isOpen,
  onOpenChange,
  children,
  cancelLabel,
  confirmLabel,
  onConfirm,
  isPending,
  tone = 'danger',
  error,
}: ConfirmDialogProps) {
  return (
    <Dialog title={title} isOpen={isOpen} onOpenChange={onOpenChange} role="alertdialog">
      {children && <div className="dialog__body">{children}</div>}
      <DialogFooter
        error={error}
        cancelLabel={cancelLabel}
        onCancel={() => onOpenChange(false)}
        pending={isPending}
        autoFocus
      >
        <Button variant={tone} onPress={onConfirm} isPending={isPending}>
          {confirmLabel}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}

export type ConfirmActionProps = Omit<
  ConfirmDialogProps,
  'onConfirm' | 'isPending' | 'error' | 'onOpenChange' | 'isOpen'
> & {
  /** The call made when confirmed. */
  action: () => Promise<unknown>;
  /** After the call went through. */
  onDone: () => void;
  /** Closed without acting (the cancel button, Escape). */
  onCancel: () => void;
};

/**
 * A confirmation that makes its call itself: busy while the call runs (and not closable meanwhile),
 * the refusal shown inside it. It is open while mounted: mount it when it opens, so an earlier refusal
 * is not shown again.
 */
export function ConfirmAction({ action, onDone, onCancel, ...props }: ConfirmActionProps) {
  const { pending, error, run } = useAction();
  return (
    <ConfirmDialog
      {...props}
      isOpen
      isPending={pending}
      error={error}
      onOpenChange={(open) => !open && !pending && onCancel()}
      onConfirm={async () => {
        if (await run(action)) onDone();
      }}
    />
  );
}

/**
 * A button that asks first ('Erase patient data', 'Reset second factors'): pressed, it opens its
 * {@link ConfirmAction}, which makes the call; once the call went through the confirmation closes and
 * `onDone` runs (in the same update). The dialog lives with the button: render the button where nothing
 * the call itself changes would unmount it while the call runs (a list that a push may reload is not).
 */
export function ConfirmButton({
  label,
  variant,
  onDone,
  ...confirm
}: Omit<ConfirmActionProps, 'onDone' | 'onCancel'> & {
  /** The button's own text. */
  label: ReactNode;
  variant?: ButtonProps['variant'];
  onDone?: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} onPress={() => setOpen(true)}>
        {label}
      </Button>
      {open && (
        <ConfirmAction
          {...confirm}
          onDone={() => {
            setOpen(false);
            onDone?.();
          }}
          onCancel={() => setOpen(false)}
        />
      )}
    </>
  );
}
