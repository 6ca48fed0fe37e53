import type { Key } from 'react-aria-components';
import { messageOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useHasSupportScope } from '../../state/session.ts';
import { Select } from '../../ui/Select.tsx';
import { t } from './i18n/index.ts';
import { anyMachine } from './order-payload.ts';

// 500 machines (25 a page): far beyond any pharmacy; the cap only keeps a bad cursor from looping.
const maxPages = 20;

type PickableMachine = { id: string; name: string };

/** Every page of a machine list, following its cursor up to `maxPages`. */
async function allPages(
  page: (nextToken: string | null) => Promise<{ machines: PickableMachine[]; nextToken: string | null }>,
) {
  const machines: PickableMachine[] = [];
  let nextToken: string | null = null;
  for (let i = 0; i < maxPages; i++) {
    const answer = await page(nextToken);
    machines.push(...answer.machines.map((m) => ({ id: m.id, name: m.name })));
    nextToken = answer.nextToken;
    if (!nextToken) break;
  }
  return machines;
}

/** Every non-archived machine of the business, by name (all pages: a pick-one list cannot scroll-load). */
export function useBusinessMachines(businessId: string) {
  return useQuery(
    (signal) =>
      allPages((nextToken) => rpc('machines', 'listMachines', { businessId, archived: false, nextToken }, { signal })),
    ['machines', 'listMachines', businessId, false, 'all'],
  );
}

/**
 * For support staff (QA driving simulated lockers), the business's test machines too; they are never the
 * business's "only machine" that the form picks by itself. Pharmacy users do not see test machines.
 */
function useBusinessTestMachines(businessId: string) {
  const support = useHasSupportScope();
  return useQuery(
    async (signal) =>
      support
        ? allPages(async (nextToken) => {
            const answer = await rpc(
              'testMachines',
              'list',
              { businessId, nextToken: nextToken ?? undefined },
              { signal },
            );
            return { machines: answer.testMachines.filter((m) => !m.archived), nextToken: answer.nextToken };
          })
        : [],
    ['testMachines', 'list', businessId, support, 'all'],
  );
}

/**
 * The machine the bag goes into, or none yet (the API allows it: the locker that loads the bag binds
 * it). A business with a single machine has it chosen from the start (docs/decisions/orders.md).
 */
export function MachinePicker({
  businessId,
  chosen,
  onChange,
  errorMessage,
}: {
  businessId: string;
  /** The server's message about the machine sent (NOT_FOUND, ARCHIVED). */
  errorMessage?: string;
  /** The user's pick; null until they make one. */
  chosen: string | null;
  onChange: (machineId: string) => void;
}) {
  const machines = useBusinessMachines(businessId);
  const testMachines = useBusinessTestMachines(businessId);
  const list = machines.data ?? [];
  return (
    <Select
      label={t('orders.create.machine')}
      name="machineId"
      options={[
        { id: anyMachine, label: t('orders.create.noMachine') },
        ...list.map((m) => ({ id: m.id, label: m.name })),
        ...(testMachines.data ?? []).map((m) => ({
          id: m.id,
          label: t('orders.create.testMachine', { name: m.name }),
        })),
      ]}
      selectedKey={machineChoiceOf(chosen, machines.data)}
      onSelectionChange={(key: Key | null) => onChange(key === null ? anyMachine : String(key))}
      description={machines.error ? messageOf(machines.error) : undefined}
      isDisabled={machines.isLoading && !machines.data}
      errorMessage={errorMessage}
      isInvalid={errorMessage !== undefined}
    />
  );
}

/** The machine id the form sends: the user's pick, else the only machine, else none. */
export const machineChoiceOf = (chosen: string | null, machines: { id: string }[] | undefined) =>
  chosen ?? (machines?.length === 1 ? (machines[0]?.id ?? anyMachine) : anyMachine);
