import { type } from 'arktype';
import { Bag, NewTestMachine, TestMachine } from '../machine/machine.ts';
import { text } from '../validation/general.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, supportOnly } from './define.ts';
import { MachineForm, machinesPageSize } from './machines.ts';
import { byId } from './method-builders.ts';
import { Paging } from './paging.ts';

/** Test machines page like machines. */
export const testMachinesPageSize = machinesPageSize;

export const testMachines = defineArea({
  create: {
    input: MachineForm.and({ businessId: Id }),
    output: type({ testMachine: NewTestMachine }),
    access: supportOnly,
    summary: 'Adds a test machine, paired at once: its credentials are in the answer (for locker-sim).',
  },
  get: byId({
    output: type({ testMachine: TestMachine }),
    access: supportOnly,
    summary:
      'A test machine with its current credentials, or none (credentialsNote says why) when they cannot be shown without cutting its locker off.',
  }),
  list: {
    input: type({ businessId: Id, 'archived?': 'boolean', 'filter?': text({ max: 200 }), ...Paging }),
    output: type({ testMachines: TestMachine.array(), nextToken: 'string | null' }),
    access: supportOnly,
    summary: "A business's test machines by name: active or archived, case-insensitive name prefix, 25 a page.",
  },
  update: {
    input: MachineForm.and({ id: Id }),
    output: type({ testMachine: TestMachine }),
    access: supportOnly,
    summary: 'Changes name, slots or payments of a test machine.',
  },
  remove: byId({
    output: type({ ok: 'true' }),
    access: supportOnly,
    summary: 'Deletes a test machine with everything it reported.',
  }),
  getTestMachineBags: byId({
    output: type({ bags: Bag.array() }),
    access: supportOnly,
    summary: 'The bags a test machine holds now, by location.',
  }),
});
