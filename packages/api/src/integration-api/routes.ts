import {
  IntegrationAvailability,
  IntegrationCancelInput,
  IntegrationEvent,
  IntegrationEventsQuery,
  IntegrationMachine,
  IntegrationOrder,
  IntegrationOrderInput,
  IntegrationOrderQuery,
  IntegrationPatient,
  IntegrationPatientInput,
  IntegrationPatientQuery,
} from '@medlocker/core';
import { type Type, type } from 'arktype';
import type { AppDeps } from '../context/deps.ts';
import {
  cancelIntegrationOrder,
  createIntegrationOrder,
  findIntegrationPatient,
  getIntegrationOrder,
  getIntegrationPatient,
  type IntegrationActor,
  listIntegrationEvents,
  listIntegrationMachines,
  listIntegrationOrders,
  machineAvailability,
  upsertIntegrationPatient,
} from './service.ts';

/*
 * Every resource route of `/integration/v1` in one table: the controller (index.ts) serves
 * them and the OpenAPI document (openapi.ts) describes them from the same entries, so neither can miss one.
 */

export type Answer = { status: number; body: unknown };

export type IntegrationRoute = {
  method: 'GET' | 'POST';
  /** Elysia's form: `/orders/:id`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  /** Checks the query string (GET). */
  query?: Type;
  /** Checks the JSON body (POST). */
  body?: Type;
  /** The success answer, for the document. */
  response: Type;
  status: number;
  run: (deps: AppDeps, actor: IntegrationActor, input: never) => Promise<Answer>;
};

const ok =
  <I, O>(fn: (deps: AppDeps, actor: IntegrationActor, input: I) => Promise<O>, status = 200) =>
  async (deps: AppDeps, actor: IntegrationActor, input: I): Promise<Answer> => ({
    status,
    body: await fn(deps, actor, input),
  });

const OrderOut = type({ order: IntegrationOrder });
const PatientOut = type({ patient: IntegrationPatient });

export const integrationRoutesTable: IntegrationRoute[] = [
  {
    method: 'POST',
    path: '/orders',
    operationId: 'createOrder',
    tag: 'orders',
    summary:
      'Creates an order for a current patient of the business (createdVia integration-api); a second current order with the same barcode is 409.',
    body: IntegrationOrderInput,
    response: OrderOut,
    status: 201,
    run: ok(createIntegrationOrder, 201),
  },
  {
    method: 'GET',
    path: '/orders',
    operationId: 'listOrders',
    tag: 'orders',
    summary:
      'The business’s orders, newest first, filtered by status, patientId, barcode and created time; `next` is the cursor of the next page.',
    query: IntegrationOrderQuery,
    response: type({ orders: IntegrationOrder.array(), next: 'string | null' }),
    status: 200,
    run: ok(listIntegrationOrders),
  },
  {
    method: 'GET',
    path: '/orders/:id',
    operationId: 'getOrder',
    tag: 'orders',
    summary: 'One order of the business.',
    response: OrderOut,
    status: 200,
    run: ok(getIntegrationOrder),
  },
  {
    method: 'POST',
    path: '/orders/:id/cancel',
    operationId: 'cancelOrder',
    tag: 'orders',
    summary: 'Cancels a new or loaded order with a reason; its PIN stops working at once. Any other state is 409.',
    body: IntegrationCancelInput,
    response: OrderOut,
    status: 200,
    run: ok(cancelIntegrationOrder),
  },
  {
    method: 'POST',
    path: '/patients',
    operationId: 'upsertPatient',
    tag: 'patients',
    summary:
      'Adds the patient with this displayId (the business’s own id for them: its record system’s id or the NHS number), 201, or replaces the current one’s details, 200.',
    body: IntegrationPatientInput,
    response: PatientOut,
    status: 200,
    run: async (deps, actor, input: typeof IntegrationPatientInput.infer) => {
      const { created, patient } = await upsertIntegrationPatient(deps, actor, input);
      return { status: created ? 201 : 200, body: { patient } };
    },
  },
  {
    method: 'GET',
    path: '/patients',
    operationId: 'findPatient',
    tag: 'patients',
    summary: 'The current patient with this displayId, or 404.',
    query: IntegrationPatientQuery,
    response: PatientOut,
    status: 200,
    run: ok(findIntegrationPatient),
  },
  {
    method: 'GET',
    path: '/patients/:id',
    operationId: 'getPatient',
    tag: 'patients',
    summary: 'One patient of the business (deleted ones too, with deleted: true).',
    response: PatientOut,
    status: 200,
    run: ok(getIntegrationPatient),
  },
  {
    method: 'GET',
    path: '/machines',
    operationId: 'listMachines',
    tag: 'machines',
    summary: 'The business’s lockers that are not archived, by name.',
    response: type({ machines: IntegrationMachine.array() }),
    status: 200,
    run: ok(listIntegrationMachines),
  },
  {
    method: 'GET',
    path: '/machines/:id/availability',
    operationId: 'machineAvailability',
    tag: 'machines',
    summary: 'How many of the locker’s slots are free, and whether it can take an order now (and why not).',
    response: type({ availability: IntegrationAvailability }),
    status: 200,
    run: ok(machineAvailability),
  },
  {
    method: 'GET',
    path: '/events',
    operationId: 'listEvents',
    tag: 'events',
    summary:
      'The events feed: the business’s events after the `after` sequence, oldest first; poll again with `after` = `next`.',
    query: IntegrationEventsQuery,
    response: type({ events: IntegrationEvent.array(), next: 'number' }),
    status: 200,
    run: ok(listIntegrationEvents),
  },
];
