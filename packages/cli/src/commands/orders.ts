import {
  counted,
  formatDateTime,
  formatPence,
  type Order,
  type OrderEvent,
  type OrderInput,
  type OrderStatusFilter,
  orderDisplayStatus,
  orderStatuses,
  ordersPageSize,
} from '@medlocker/core';
import { type Command, Option } from 'commander';
import { signedInFor } from '../business-ref.ts';
import type { Client } from '../client.ts';
import { type CliIo, signedIn } from '../context.ts';
import { collectPages, pagingOptions, printPage } from '../paging.ts';
import { patientIdByDisplayId } from '../patient-ref.ts';
import { showCommand } from '../show-command.ts';
import { renderFields, renderTable } from '../ui/table.tsx';
import { importOrdersCommand } from './orders-import.ts';
import { labelsCommand } from './orders-labels.ts';
import { qrSignCommand } from './orders-qr.ts';

/** The statuses `--status` takes: SPEC §4's, and `expired` (loaded, window passed). */
const statusChoices: OrderStatusFilter[] = [...orderStatuses, 'expired'];

const statusOf = (o: Order) => orderDisplayStatus(o, Date.now());

const columns = [
  { header: 'Reference', value: (o: Order) => o.reference },
  { header: 'Barcode', value: (o: Order) => o.barcode },
  { header: 'Patient', value: (o: Order) => o.patientName },
  { header: 'Machine', value: (o: Order) => o.machineName ?? '-' },
  { header: 'Status', value: statusOf },
  { header: 'Created', value: (o: Order) => formatDateTime(o.created) },
];

/** One order as `get`, `create` and `cancel` show it. */
function orderFields(o: Order): [string, string][] {
  const fields: [string, string][] = [
    ['Id', o.id],
    ['Reference', o.reference],
    ['Barcode', o.barcode],
    ['Business', o.businessName],
    ['Patient', `${o.patientName} (${o.patientId})`],
    ['Machine', o.machineName ? `${o.machineName} (${o.machineId})` : '-'],
    ['Status', statusOf(o)],
    ['Payment', o.paymentStatus],
    ['Prescription charge', formatPence(o.prescriptionCharge)],
    ['Retail charge', formatPence(o.retailCharge)],
    ['Collection window', counted(o.collectionWindow, 'day')],
    ['Expires', o.expiresAt === null ? '-' : formatDateTime(o.expiresAt)],
    ['Created', `${formatDateTime(o.created)} via ${o.createdVia}`],
  ];
  if (o.cancelled) {
    fields.push(['Cancelled', `${formatDateTime(o.cancelled.cancelledAt)} by ${o.cancelled.cancelledByDisplayName}`]);
  }
  return fields;
}

const eventColumns = [
  { header: 'When', value: (e: OrderEvent) => formatDateTime(e.created) },
  { header: 'Event', value: (e: OrderEvent) => e.code },
  { header: 'Message', value: (e: OrderEvent) => e.message.replace(/\s+/g, ' ') },
];

type ListOptions = {
  business: string;
  status?: OrderStatusFilter;
  current?: boolean;
  search?: string;
  all?: boolean;
  nextToken?: string;
};

type CreateOptions = {
  business: string;
  patient: string;
  barcode: string;
  machine?: string;
  window?: string;
  prescriptionCharge?: string;
  retailCharge?: string;
};

/** `medlocker orders list | get | create | cancel | import | labels | qr-sign`. */
export function ordersCommands(program: Command, io: CliIo): void {
  const orders = program
    .command('orders')
    .description("A business's orders: list, look at, create, cancel, import from CSV, and print bag labels");
  listCommand(orders, io);
  showCommand(orders, io, {
    name: 'get',
    description: "One order's details and its timeline (oldest first)",
    id: 'the order id',
    fetch: orderAndEvents,
    text: ({ order, events }) =>
      `${renderFields(orderFields(order))}\n\nTimeline:\n` +
      (events.length === 0 ? 'No events' : renderTable(events, eventColumns)),
  });
  createCommand(orders, io);
  cancelCommand(orders, io);
  importOrdersCommand(orders, io);
  labelsCommand(orders, io);
  qrSignCommand(orders, io);
}

function listCommand(orders: Command, io: CliIo): void {
  pagingOptions(
    orders
      .command('list')
      .description(`List a business's orders, newest first (${ordersPageSize} a page; --all for every page)`)
      .requiredOption('--business <id|name>', 'the business: its id or its name')
      .addOption(new Option('--status <status>', 'only orders in this state').choices(statusChoices))
      .option('--current', 'only new and loaded orders')
      .option('--search <text>', 'barcode, reference or patient name containing this text'),
  ).action(async (options: ListOptions, command: Command) => {
    const { ctx, client, businessId } = await signedInFor(io, command, options.business);
    const page = await collectPages<Order>(async (token) => {
      const page = await client.call('orders', 'listOrdersByBusiness', {
        businessId,
        ...(options.status ? { statusCode: options.status } : {}),
        ...(options.current ? { onlyCurrent: true } : {}),
        ...(options.search !== undefined ? { filterText: options.search } : {}),
        ...(token ? { nextToken: token } : {}),
      });
      return { items: page.orders, nextToken: page.nextToken };
    }, options);
    printPage(ctx, 'orders', page, columns, { empty: 'No orders found', more: 'orders' });
  });
}

/** An order and its timeline, oldest first. */
async function orderAndEvents(client: Client, id: string) {
  const { order } = await client.call('orders', 'get', { id });
  const { items: events } = await collectPages<OrderEvent>(
    async (token) => {
      const page = await client.call('orders', 'listEvents', {
        orderId: id,
        ...(token ? { nextToken: token } : {}),
      });
      return { items: page.events, nextToken: page.nextToken };
    },
    { all: true },
  );
  return { order, events };
}

function createCommand(orders: Command, io: CliIo): void {
  orders
    .command('create')
    .description('Add an order for a current patient of the business')
    .requiredOption('--business <id|name>', 'the business: its id or its name')
    .requiredOption(
      '--patient <patient-id>',
      "the patient: the business's Patient ID (as in the patients list and the import), or the internal id",
    )
    .requiredOption('--barcode <code>', "the bag's barcode")
    .option('--machine <id>', 'the machine id (else the locker that loads the bag decides)')
    .option('--window <days>', "collection window in days, 1 to 90 (default: the business's)")
    .option('--prescription-charge <pounds>', 'prescription charge in pounds, e.g. 9.90')
    .option('--retail-charge <pounds>', 'retail charge in pounds, e.g. 1.00')
    .action(async (options: CreateOptions, command: Command) => {
      const { ctx, client, businessId } = await signedInFor(io, command, options.business);
      // The business's Patient ID first; a value no current patient has is passed on as an internal id,
      // and the API refuses it in its own words if it is not one either.
      const patientId =
        (options.patient.trim() && (await patientIdByDisplayId(client, businessId, options.patient))) ||
        options.patient;
      // Sent as typed: the API checks with core's OrderInput and answers SPEC §5's words per field.
      const input: OrderInput = {
        businessId,
        patientId,
        barcode: options.barcode,
        ...(options.machine !== undefined ? { machineId: options.machine } : {}),
        ...(options.window !== undefined ? { collectionWindow: options.window } : {}),
        ...(options.prescriptionCharge !== undefined ? { prescriptionCharge: options.prescriptionCharge } : {}),
        ...(options.retailCharge !== undefined ? { retailCharge: options.retailCharge } : {}),
      };
      const { order } = await client.call('orders', 'create', input);
      ctx.print({ order }, () => `Order ${order.reference} created\n${renderFields(orderFields(order))}`);
    });
}

function cancelCommand(orders: Command, io: CliIo): void {
  orders
    .command('cancel')
    .description('Cancel a new or loaded order, giving a reason; its PIN stops working at once')
    .argument('<id>', 'the order id')
    .requiredOption('--reason <text>', 'why (recorded on the order)')
    .action(async (id: string, options: { reason: string }, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      const { order } = await client.call('orders', 'cancel', { id, reason: options.reason });
      ctx.print({ order }, () => `Order ${order.reference} cancelled`);
    });
}
