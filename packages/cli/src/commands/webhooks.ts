import {
  formatDateTime,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookOutcome,
  webhookEventTypes,
  webhookOutcomes,
  webhooksPageSize,
} from '@medlocker/core';
import { type Command, Option } from 'commander';
import { businessIdOf, signedInFor } from '../business-ref.ts';
import { type CliIo, signedIn, UsageError } from '../context.ts';
import { collectPages, pagingOptions, printPage } from '../paging.ts';

const columns = [
  { header: 'Made', value: (d: WebhookDelivery) => formatDateTime(d.created) },
  { header: 'Id', value: (d: WebhookDelivery) => d.id },
  { header: 'Event', value: (d: WebhookDelivery) => d.eventType },
  { header: 'Outcome', value: (d: WebhookDelivery) => d.status },
  { header: 'Tries', value: (d: WebhookDelivery) => String(d.attempts) },
  {
    header: 'Last',
    value: (d: WebhookDelivery) => (d.lastStatus !== null ? String(d.lastStatus) : (d.lastError ?? '')),
  },
];

/** An ISO 8601 time ('2026-11-26T09:30:00Z') as ms; anything else is a usage error naming the option. */
function timeOf(option: string, text: string): number {
  const at = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || !Number.isFinite(at) || at < 0) {
    throw new UsageError(`${option} must be an ISO 8601 time, e.g. 2026-11-26T09:30:00Z, not '${text}'`);
  }
  return at;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** `medlocker webhooks list|replay|test`: the delivery console from the command line. */
export function webhooksCommands(program: Command, io: CliIo): void {
  const webhooks = program
    .command('webhooks')
    .description("A business's webhook deliveries to its integration: list, replay, send a test event");
  listCommand(webhooks, io);
  replayCommand(webhooks, io);
  testCommand(webhooks, io);
}

type ListOptions = {
  business: string;
  event?: WebhookEventType;
  outcome?: WebhookOutcome;
  since?: string;
  all?: boolean;
  nextToken?: string;
};

function listCommand(webhooks: Command, io: CliIo): void {
  pagingOptions(
    webhooks
      .command('list')
      .description(
        `List a business's webhook deliveries, newest first (${webhooksPageSize} a page; --all for every page)`,
      )
      .requiredOption('--business <id|name>', 'the business: its id or its name')
      .addOption(new Option('--event <type>', 'only deliveries of this event type').choices(webhookEventTypes))
      .addOption(new Option('--outcome <outcome>', 'only deliveries with this outcome').choices(webhookOutcomes))
      .option('--since <time>', 'only deliveries made at or after this ISO 8601 time'),
  ).action(async (options: ListOptions, command: Command) => {
    const since = options.since === undefined ? undefined : timeOf('--since', options.since);
    const { ctx, client, businessId } = await signedInFor(io, command, options.business);
    const page = await collectPages<WebhookDelivery>(async (token) => {
      const page = await client.call('webhooks', 'listDeliveries', {
        businessId,
        ...(options.event ? { eventType: options.event } : {}),
        ...(options.outcome ? { outcome: options.outcome } : {}),
        ...(since !== undefined ? { since } : {}),
        nextToken: token,
      });
      return { items: page.deliveries, nextToken: page.nextToken };
    }, options);
    printPage(ctx, 'deliveries', page, columns, { empty: 'No webhook deliveries found', more: 'deliveries' });
  });
}

function replayCommand(webhooks: Command, io: CliIo): void {
  webhooks
    .command('replay')
    .description('Send a delivery again (same webhook-id), or every failed one of a business since a time')
    .argument('[deliveryId]', 'the delivery to send again')
    .option('--business <id|name>', 'with --failed-since: the business whose failed deliveries to send again')
    .option(
      '--failed-since <time>',
      'with --business: replay the deliveries that failed, made since this ISO 8601 time',
    )
    .action(
      async (
        deliveryId: string | undefined,
        options: { business?: string; failedSince?: string },
        command: Command,
      ) => {
        const bulk = options.business !== undefined || options.failedSince !== undefined;
        if (deliveryId !== undefined && bulk) {
          throw new UsageError('Give a delivery id, or --business with --failed-since, not both');
        }
        if (deliveryId === undefined && (options.business === undefined || options.failedSince === undefined)) {
          throw new UsageError('Give a delivery id, or --business with --failed-since');
        }
        const since = options.failedSince === undefined ? 0 : timeOf('--failed-since', options.failedSince);
        const { ctx, client } = await signedIn(io, command);
        if (deliveryId !== undefined) {
          const { delivery } = await client.call('webhooks', 'replayDelivery', { id: deliveryId });
          ctx.print({ delivery }, () => `Delivery ${delivery.id} (${delivery.eventType}) queued again`);
          return;
        }
        const businessId = await businessIdOf(client, options.business as string);
        const { replayed } = await client.call('webhooks', 'replayFailed', { businessId, since });
        ctx.print({ replayed }, () =>
          replayed === 0
            ? 'No failed deliveries since then'
            : `${plural(replayed, 'failed delivery', 'failed deliveries')} queued again`,
        );
      },
    );
}

function testCommand(webhooks: Command, io: CliIo): void {
  webhooks
    .command('test')
    .description("Send a test event to a business's webhook URL")
    .requiredOption('--business <id|name>', 'the business: its id or its name')
    .action(async (options: { business: string }, command: Command) => {
      const { ctx, client, businessId } = await signedInFor(io, command, options.business);
      const { delivery } = await client.call('webhooks', 'sendTestEvent', { businessId });
      ctx.print({ delivery }, () => `Test event queued: delivery ${delivery.id}`);
    });
}
