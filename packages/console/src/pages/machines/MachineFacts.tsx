import { formatDate, formatDateTime } from '@medlocker/core';
import type { RpcOutput } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';

/* The machine page's facts: its connection, slots, out-of-order state and payments; and its archive mark. */

type MachineAnswer = RpcOutput<'machines', 'getMachine'>;

/** The machine's connection, slots, out-of-order state and payments. */
export function MachineFacts({ data }: { data: MachineAnswer }) {
  const { machine, online, lastSeen } = data;
  const outOfOrder = machine.outOfOrderStatus;
  return (
    <dl className="details">
      <div className="details__item">
        <dt>Connection</dt>
        <dd>
          {online ? 'Online' : 'Offline'}
          {lastSeen ? ` · last seen ${formatDateTime(lastSeen)}` : data.paired ? '' : ' · not paired yet'}
        </dd>
      </div>
      <div className="details__item">
        <dt>Number of slots</dt>
        <dd>{machine.numberOfSlots}</dd>
      </div>
      <div className="details__item">
        <dt>Out of order</dt>
        <dd>
          {outOfOrder ? `Since ${formatDateTime(outOfOrder.at)}, by ${outOfOrder.userDisplayName}` : 'No, in order'}
        </dd>
      </div>
      <div className="details__item">
        <dt>Payments</dt>
        <dd>{machine.paymentsEnabled ? 'Enabled' : 'Disabled'}</dd>
      </div>
    </dl>
  );
}

/** The warning an archived machine's page opens with. */
export function ArchivedBanner({ archived }: { archived: NonNullable<MachineAnswer['machine']['archived']> }) {
  return (
    <Banner tone="warning" title="This machine is archived">
      Archived on {formatDate(archived.at)}
      {archived.userDisplayName ? ` by ${archived.userDisplayName}` : ''}. It cannot be edited or paired.
    </Banner>
  );
}
