import {
  type DeliveryStatus,
  deliveryStatuses,
  formatDateTime,
  messagesPageSize,
  type OutboxMessage,
} from '@medlocker/core';
import { type Command, Option } from 'commander';
import { signedInFor } from '../business-ref.ts';
import type { CliIo } from '../context.ts';
import { collectPages, pagingOptions, printPage } from '../paging.ts';

/** Long enough to recognise a message; `--json` has it whole. */
const PREVIEW = 60;
const preview = (text: string) => {
  const line = text.replace(/\s+/g, ' ');
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW - 1)}…` : line;
};

const columns = [
  { header: 'Queued', value: (m: OutboxMessage) => formatDateTime(m.created) },
  { header: 'Channel', value: (m: OutboxMessage) => m.channel },
  { header: 'To', value: (m: OutboxMessage) => m.recipient },
  { header: 'Kind', value: (m: OutboxMessage) => m.templateKey },
  { header: 'Status', value: (m: OutboxMessage) => m.status },
  { header: 'Tries', value: (m: OutboxMessage) => String(m.attempts) },
  // A body the server keeps back (a sign-up code, a PIN) is null.
  { header: 'Message', value: (m: OutboxMessage) => (m.body === null ? 'hidden' : preview(m.body)) },
];

/** `medlocker messages list`. */
export function messagesCommands(program: Command, io: CliIo): void {
  const messages = program
    .command('messages')
    .description("A business's message outbox: the SMS and email queued and sent");

  pagingOptions(
    messages
      .command('list')
      .description(`List a business's messages, newest first (${messagesPageSize} a page; --all for every page)`)
      .requiredOption('--business <id|name>', 'the business: its id or its name')
      .addOption(new Option('--status <status>', 'only messages in this delivery state').choices(deliveryStatuses)),
  ).action(
    async (
      options: { business: string; status?: DeliveryStatus; all?: boolean; nextToken?: string },
      command: Command,
    ) => {
      const { ctx, client, businessId } = await signedInFor(io, command, options.business);
      const page = await collectPages<OutboxMessage>(async (token) => {
        const page = await client.call('messages', 'listOutbox', {
          businessId,
          ...(options.status ? { status: options.status } : {}),
          nextToken: token,
        });
        return { items: page.messages, nextToken: page.nextToken };
      }, options);
      printPage(ctx, 'messages', page, columns, { empty: 'No messages found', more: 'messages' });
    },
  );
}
