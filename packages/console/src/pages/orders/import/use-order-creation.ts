import {
  ApiError,
  normalisedPatientId,
  type OrderCsvRow,
  patientIdByDisplayId,
  type RowError,
  rowRefusalOf,
  unknownPatientError,
} from '@medlocker/core';
import { useRef, useState } from 'react';
import { rpc } from '../../../api/client.ts';
import { queryClient } from '../../../api/queries.ts';

/** Orders on their way to the server at once, as the cli sends them: each is one small request. */
const CREATE_IN_FLIGHT = 4;

export type CreatedOrder = { row: number; id: string; reference: string; barcode: string };

/**
 * Creates the checked rows through orders/create, 4 at a time (docs/decisions/orders.md, Importing
 * orders): a patient given by their Patient ID is looked up once per ID; a row the server refuses (a
 * barcode on a live order, a patient or machine it does not know) is listed with the server's words and
 * the others go on. Cancel stops starting rows; those on their way finish. A lost session stops it all.
 */
export function useOrderCreation(businessId: string) {
  const [done, setDone] = useState(0);
  const [created, setCreated] = useState<CreatedOrder[]>([]);
  const [refused, setRefused] = useState<RowError[]>([]);
  const [failure, setFailure] = useState<unknown>(null);
  const cancelled = useRef(false);

  const run = async (rows: readonly OrderCsvRow[]) => {
    cancelled.current = false;
    setDone(0);
    setCreated([]);
    setRefused([]);
    setFailure(null);
    const patientIds = new Map<string, Promise<string | null>>();
    const lookUp = (displayId: string) => {
      const key = normalisedPatientId(displayId);
      let found = patientIds.get(key);
      if (!found) {
        found = patientIdByDisplayId((input) => rpc('patients', 'list', input), businessId, displayId);
        patientIds.set(key, found);
      }
      return found;
    };
    const createRow = async ({ row, input, patientDisplayId }: OrderCsvRow) => {
      try {
        const patientId = patientDisplayId === undefined ? input.patientId : await lookUp(patientDisplayId);
        if (!patientId) {
          setRefused((r) => [...r, { row, errors: [unknownPatientError(patientDisplayId ?? '')] }]);
          return;
        }
        const { order } = await rpc('orders', 'create', { ...input, patientId });
        setCreated((c) => [...c, { row, id: order.id, reference: order.reference, barcode: order.barcode }]);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 401 || error.status === 0) throw error;
        setRefused((r) => [...r, { row, errors: rowRefusalOf(error) }]);
      }
    };
    let next = 0;
    const worker = async () => {
      while (next < rows.length && !cancelled.current) {
        await createRow(rows[next++] as OrderCsvRow);
        setDone((d) => d + 1);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(CREATE_IN_FLIGHT, rows.length) }, worker));
    } catch (error) {
      setFailure(error);
    }
    void queryClient.invalidateQueries({ queryKey: ['orders'] });
  };

  const byRow = <T extends { row: number }>(items: T[]) => [...items].sort((a, b) => a.row - b.row);
  return {
    run,
    done,
    created: byRow(created),
    refused,
    failure,
    cancel: () => {
      cancelled.current = true;
    },
    cancelled,
  };
}
