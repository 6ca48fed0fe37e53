import type { Machine } from '@medlocker/core';
import type { ReactNode } from 'react';
import { rpc } from '../../api/client.ts';
import { ConfirmDialog } from '../../ui/Dialog.tsx';

/** The machine page's actions that ask first. */
export type Confirm = 'archive' | 'payments' | 'outOfOrder' | null;

/**
 * The questions the machine page asks before archiving, switching payments and taking the machine out
 * of order (or back in): each changes what patients meet at the locker, so none happens on one click.
 */
export function MachineConfirmDialogs({
  machine,
  confirm,
  pending,
  error,
  onClose,
  run,
}: {
  machine: Machine;
  confirm: Confirm;
  pending: boolean;
  error: ReactNode;
  onClose: () => void;
  run: (action: () => Promise<unknown>, done: string) => Promise<void>;
}) {
  const common = { isPending: pending, error, onOpenChange: (open: boolean) => !open && onClose() };
  return (
    <>
      <ArchiveDialog machine={machine} common={common} isOpen={confirm === 'archive'} run={run} />
      <PaymentsDialog machine={machine} common={common} isOpen={confirm === 'payments'} run={run} />
      <OutOfOrderDialog machine={machine} common={common} isOpen={confirm === 'outOfOrder'} run={run} />
    </>
  );
}

type DialogProps = {
  machine: Machine;
  common: { isPending: boolean; error: ReactNode; onOpenChange: (open: boolean) => void };
  isOpen: boolean;
  run: (action: () => Promise<unknown>, done: string) => Promise<void>;
};

/** Archive or unarchive: an archived machine is disconnected and read-only. */
function ArchiveDialog({ machine, common, isOpen, run }: DialogProps) {
  const archived = machine.archived;
  return (
    <ConfirmDialog
      {...common}
      title={archived ? `Unarchive ${machine.name}?` : `Archive ${machine.name}?`}
      isOpen={isOpen}
      cancelLabel="Cancel"
      confirmLabel={archived ? 'Unarchive' : 'Archive'}
      tone={archived ? 'primary' : 'danger'}
      onConfirm={() =>
        void run(
          () => rpc('machines', 'toggleArchive', { id: machine.id }),
          archived ? 'Machine unarchived.' : 'Machine archived.',
        )
      }
    >
      <p>
        {archived
          ? 'The machine can be edited and paired again.'
          : 'The locker is disconnected and its credentials revoked; the machine becomes read-only.'}
      </p>
    </ConfirmDialog>
  );
}

/** Turn card payments on or off at the locker. */
function PaymentsDialog({ machine, common, isOpen, run }: DialogProps) {
  return (
    <ConfirmDialog
      {...common}
      title={machine.paymentsEnabled ? 'Disable payments?' : 'Enable payments?'}
      isOpen={isOpen}
      cancelLabel="Cancel"
      confirmLabel={machine.paymentsEnabled ? 'Disable payments' : 'Enable payments'}
      tone="primary"
      onConfirm={() =>
        void run(
          () =>
            rpc('machines', 'updateMachine', {
              id: machine.id,
              name: machine.name,
              numberOfSlots: machine.numberOfSlots,
              paymentsEnabled: !machine.paymentsEnabled,
            }),
          machine.paymentsEnabled ? 'Payments disabled.' : 'Payments enabled.',
        )
      }
    >
      <p>
        {machine.paymentsEnabled
          ? 'Patients will no longer be asked to pay at this machine.'
          : 'Patients will be asked to pay their charges at this machine.'}
      </p>
    </ConfirmDialog>
  );
}

/** Take the machine out of order, or back in. */
function OutOfOrderDialog({ machine, common, isOpen, run }: DialogProps) {
  const outOfOrder = machine.outOfOrderStatus !== null;
  return (
    <ConfirmDialog
      {...common}
      title={outOfOrder ? `Put ${machine.name} back in order?` : `Take ${machine.name} out of order?`}
      isOpen={isOpen}
      cancelLabel="Cancel"
      confirmLabel={outOfOrder ? 'Back in order' : 'Out of order'}
      tone={outOfOrder ? 'primary' : 'danger'}
      onConfirm={() =>
        void run(
          () => rpc('machines', 'toggleOutOfOrderStatus', { id: machine.id }),
          outOfOrder ? 'The machine is back in order.' : 'The machine is out of order.',
        )
      }
    >
      <p>
        {outOfOrder
          ? 'Patients can collect from this machine again.'
          : 'Patients cannot collect from this machine until it is put back in order.'}
      </p>
    </ConfirmDialog>
  );
}
