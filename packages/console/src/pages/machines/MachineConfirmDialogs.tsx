import type { Machine, PaymentClientSettings } from '@medlocker/core';
import type { ReactNode } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { businessSectionPaths } from '../../paths.ts';
import { Banner } from '../../ui/Banner.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';

/** The machine page's actions that ask first. */
export type Confirm = 'archive' | 'payments' | 'outOfOrder' | null;

/**
 * The questions the machine page asks before archiving, switching payments and taking the machine out
 * of order (or back in): each changes what patients meet at the locker, so none happens on one click.
 */
export function MachineConfirmDialogs({
  machine,
  test = false,
  confirm,
  pending,
  error,
  onClose,
  run,
}: {
  machine: Machine;
  /** A QA test machine: changed through testMachines.update. */
  test?: boolean;
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
      <PaymentsDialog machine={machine} test={test} common={common} isOpen={confirm === 'payments'} run={run} />
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

/**
 * Turn card payments on or off at the locker. Turning them on for a business without a card provider
 * (no Judopay settings accepting a card) warns first: its patients could only be told to contact it.
 */
function PaymentsDialog({ machine, test, common, isOpen, run }: DialogProps & { test: boolean }) {
  const enabling = !machine.paymentsEnabled;
  const input = {
    id: machine.id,
    name: machine.name,
    numberOfSlots: machine.numberOfSlots,
    paymentsEnabled: enabling,
  };
  return (
    <ConfirmDialog
      {...common}
      title={enabling ? 'Enable payments?' : 'Disable payments?'}
      isOpen={isOpen}
      cancelLabel="Cancel"
      confirmLabel={enabling ? 'Enable payments' : 'Disable payments'}
      tone="primary"
      onConfirm={() =>
        void run(
          () => (test ? rpc('testMachines', 'update', input) : rpc('machines', 'updateMachine', input)),
          enabling ? 'Payments enabled.' : 'Payments disabled.',
        )
      }
    >
      <p>
        {enabling
          ? 'Patients will be asked to pay their charges at this machine.'
          : 'Patients will no longer be asked to pay at this machine.'}
      </p>
      {enabling && isOpen && <NoCardProviderWarning businessId={machine.businessId} />}
    </ConfirmDialog>
  );
}

/** A warning when the business takes no card payments (paymentSettings.getPaymentClientSettings). */
function NoCardProviderWarning({ businessId }: { businessId: string }) {
  const query = useQuery(
    (signal) => rpc('paymentSettings', 'getPaymentClientSettings', { businessId }, { signal }),
    ['paymentSettings', 'getPaymentClientSettings', businessId],
  );
  const settings = query.data?.settings;
  if (!query.data || takesCards(settings ?? null)) return null;
  return (
    <Banner tone="warning" title="This business has no card provider">
      Without card payment settings patients cannot pay by card: they will only be told to contact the pharmacy
      {settings?.contactNumber ? ` on ${settings.contactNumber}` : ''}. Set up card payments in the business's{' '}
      <Link href={`${businessSectionPaths(businessId).settings}/payment`}>payment settings</Link> first.
    </Banner>
  );
}

/** The patient page's rule: Judopay with an id and at least one card scheme shown. */
const takesCards = (s: PaymentClientSettings | null) =>
  s !== null && s.provider === 'judo' && !!s.judoId && (s.showVisa || s.showMastercard || s.showAmex);

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
