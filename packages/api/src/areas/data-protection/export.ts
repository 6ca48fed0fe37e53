import { AppError, toIsoDate } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { Service } from '../../context/method.ts';
import { subjectAccessZip } from './export-file.ts';
import { readHoldings } from './export-repository.ts';

/** A subject access request answered: the ZIP (base64), and an audit entry that it was taken. */
export const exportPatientData: Service<'dataProtection/exportPatientData'> = async (deps, actor, input) => {
  const holdings = await readHoldings(deps.db, input.patientId);
  if (!holdings) throw new AppError('NOT_FOUND', `No patient with id ${input.patientId}`);
  const now = deps.now();
  const zip = subjectAccessZip(holdings, now, deps.config.productName);
  await audit(deps.db, deps, actor, {
    action: 'patient.export',
    entityType: 'patient',
    entityId: input.patientId,
    businessId: holdings.business.id,
    details: {
      orders: holdings.orders.length,
      messages: holdings.messages.length,
      auditEntries: holdings.audit.length,
    },
  });
  return {
    fileName: `patient-data-${input.patientId}-${toIsoDate(now)}.zip`,
    contentType: 'application/zip',
    data: Buffer.from(zip).toString('base64'),
  };
};
