import { formatDate, formatDateTime } from '@medlocker/core';
import type { RpcOutput } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { DetailsItem } from '../../ui/Details.tsx';
import { t } from './i18n/index.ts';

/* The machine page's facts: its connection, slots, out-of-order state and payments; and its archive mark. */

type MachineAnswer = RpcOutput<'machines', 'getMachine'>;

/** The machine's connection, slots, out-of-order state and payments. */
export function MachineFacts({ data }: { data: MachineAnswer }) {
  const { machine, online, lastSeen } = data;
  const outOfOrder = machine.outOfOrderStatus;
  return (
    <dl className="details">
      <DetailsItem term={t('machines.facts.connection')}>
        {online ? t('machines.online') : t('machines.offline')}
        {lastSeen
          ? ` · ${t('machines.facts.lastSeen', { at: formatDateTime(lastSeen) })}`
          : data.paired
            ? ''
            : ` · ${t('machines.facts.notPaired')}`}
      </DetailsItem>
      <DetailsItem term={t('machines.facts.slots')}>{machine.numberOfSlots}</DetailsItem>
      <DetailsItem term={t('machines.outOfOrder')}>
        {outOfOrder
          ? t('machines.facts.outOfOrderSince', {
              at: formatDateTime(outOfOrder.at),
              user: outOfOrder.userDisplayName,
            })
          : t('machines.facts.inOrder')}
      </DetailsItem>
      <DetailsItem term={t('machines.facts.payments')}>
        {machine.paymentsEnabled ? t('machines.facts.paymentsOn') : t('machines.facts.paymentsOff')}
      </DetailsItem>
    </dl>
  );
}

/** The warning an archived machine's page opens with. */
export function ArchivedBanner({ archived }: { archived: NonNullable<MachineAnswer['machine']['archived']> }) {
  return (
    <Banner tone="warning" title={t('machines.archivedBanner.title')}>
      {archived.userDisplayName
        ? t('machines.archivedBanner.bodyBy', { date: formatDate(archived.at), user: archived.userDisplayName })
        : t('machines.archivedBanner.body', { date: formatDate(archived.at) })}
    </Banner>
  );
}
