import type { RpcOutput } from '../../api/client.ts';
import { machinePaths } from '../../paths.ts';
import { useMayCall } from '../../state/access.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { BagsToRemove } from './BagsToRemove.tsx';
import { t } from './i18n/index.ts';

type MachineAnswer = RpcOutput<'machines', 'getMachine'>;

/**
 * What the machine page asks someone to look at: a locker reporting another number of slots than the
 * machine was set up with (getMachine's `reportedSlots`, from its StatusNotification), and the bags
 * to take out of it (cancelled or expired orders').
 */
export function MachineNotices({ businessId, data }: { businessId: string; data: MachineAnswer }) {
  const { machine, reportedSlots } = data;
  const mayEdit = useMayCall(data.test ? ['testMachines', 'update'] : ['machines', 'updateMachine']);
  const mismatch = reportedSlots !== null && reportedSlots !== machine.numberOfSlots;
  return (
    <>
      {mismatch && (
        <Banner
          tone="warning"
          title={t('machines.slotsMismatch.title')}
          action={
            mayEdit && machine.archived === null ? (
              <Link href={machinePaths.edit(businessId, machine.id)}>{t('machines.slotsMismatch.edit')}</Link>
            ) : undefined
          }
        >
          {t('machines.slotsMismatch.body', { reported: reportedSlots, configured: machine.numberOfSlots })}
        </Banner>
      )}
      <BagsToRemove businessId={businessId} machineId={machine.id} />
    </>
  );
}
