import type { Machine, PaymentClientSettings } from '@medlocker/core';
import type { ReactNode } from 'react';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { businessSectionPaths } from '../../paths.ts';
import { Banner } from '../../ui/Banner.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { t } from './i18n/index.ts';

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
      title={t(archived ? 'machines.confirm.unarchiveTitle' : 'machines.confirm.archiveTitle', { name: machine.name })}
      isOpen={isOpen}
      cancelLabel={t('machines.cancel')}
      confirmLabel={archived ? t('machines.confirm.unarchive') : t('machines.confirm.archive')}
      tone={archived ? 'primary' : 'danger'}
      onConfirm={() =>
        void run(
          () => rpc('machines', 'toggleArchive', { id: machine.id }),
          archived ? t('machines.confirm.unarchived') : t('machines.confirm.archived'),
        )
      }
    >
      <p>{archived ? t('machines.confirm.unarchiveBody') : t('machines.confirm.archiveBody')}</p>
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
      title={enabling ? t('machines.confirm.enablePaymentsTitle') : t('machines.confirm.disablePaymentsTitle')}
      isOpen={isOpen}
      cancelLabel={t('machines.cancel')}
      confirmLabel={enabling ? t('machines.confirm.enablePayments') : t('machines.confirm.disablePayments')}
      tone="primary"
      onConfirm={() =>
        void run(
          () => (test ? rpc('testMachines', 'update', input) : rpc('machines', 'updateMachine', input)),
          enabling ? t('machines.confirm.paymentsEnabled') : t('machines.confirm.paymentsDisabled'),
        )
      }
    >
      <p>{enabling ? t('machines.confirm.enablePaymentsBody') : t('machines.confirm.disablePaymentsBody')}</p>
      {enabling && isOpen && <NoCardProviderWarning businessId={machine.businessId} />}
    </ConfirmDialog>
  );
}

/** A warning when the business takes no card payments (paymentSettings.getPaymentClientSettings). */
function NoCardProviderWarning({ businessId }: { businessId: string }) {
  const query = useRpcQuery(['paymentSettings', 'getPaymentClientSettings', businessId], { businessId });
  const settings = query.data?.settings;
  if (!query.data || takesCards(settings ?? null)) return null;
  return (
    <Banner tone="warning" title={t('machines.confirm.noCardTitle')}>
      {settings?.contactNumber
        ? t('machines.confirm.noCardContactOn', { number: settings.contactNumber })
        : t('machines.confirm.noCardContact')}{' '}
      {t('machines.confirm.noCardSetUpBefore')}{' '}
      <Link href={`${businessSectionPaths(businessId).settings}/payment`}>{t('machines.confirm.noCardSetUpLink')}</Link>{' '}
      {t('machines.confirm.noCardSetUpAfter')}
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
      title={t(outOfOrder ? 'machines.confirm.backInOrderTitle' : 'machines.confirm.outOfOrderTitle', {
        name: machine.name,
      })}
      isOpen={isOpen}
      cancelLabel={t('machines.cancel')}
      confirmLabel={outOfOrder ? t('machines.confirm.backInOrder') : t('machines.confirm.outOfOrder')}
      tone={outOfOrder ? 'primary' : 'danger'}
      onConfirm={() =>
        void run(
          () => rpc('machines', 'toggleOutOfOrderStatus', { id: machine.id }),
          outOfOrder ? t('machines.confirm.nowInOrder') : t('machines.confirm.nowOutOfOrder'),
        )
      }
    >
      <p>{outOfOrder ? t('machines.confirm.backInOrderBody') : t('machines.confirm.outOfOrderBody')}</p>
    </ConfirmDialog>
  );
}
