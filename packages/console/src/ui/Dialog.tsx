import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './Button.tsx';

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
      {error && (
        <p className="dialog__error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog__actions">
        <Button autoFocus onPress={() => onOpenChange(false)} isDisabled={isPending}>
          {cancelLabel}
        </Button>
        <Button variant={tone} onPress={onConfirm} isPending={isPending}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
