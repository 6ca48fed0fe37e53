import { entityAudit } from '../../audit/audit.ts';

/** The audit entry of a change to or a read of one machine (`machine.pair`, `testMachine.remove`…), in its business. */
export const auditMachine = entityAudit('machine');
