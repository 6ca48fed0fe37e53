import { type } from 'arktype';
import { OutboxMessage } from '../notification/outbox-message.ts';
import { DeliveryStatus } from '../order/statuses.ts';
import { validationMessages } from '../validation/catalogue.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';
import { Paging } from './paging.ts';

/** Pages of outbox messages are 50 long; `nextToken` is an opaque keyset cursor on the message id. */
export const messagesPageSize = 50;

export const messages = defineArea({
  listOutbox: {
    input: type({
      businessId: Id,
      /** Only messages in this delivery state; every state when left out. */
      'status?': DeliveryStatus.configure({
        message: validationMessages.INVALID_FORMAT,
        validationId: 'INVALID_FORMAT',
      }),
      ...Paging,
    }),
    output: type({ messages: OutboxMessage.array(), nextToken: 'string | null' }),
    access: staff({ business: 'businessId' }),
    summary:
      "A business's queued and sent messages (SMS, email, WhatsApp), newest first, 50 a page; bodies that may hold a secret come back null.",
  },
});
