import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { counted, labelsMax, type Order } from '@medlocker/core';
import type { Command } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import { ApiError, type Client } from '../client.ts';
import { type CliIo, CliRefusal, signedIn, UsageError } from '../context.ts';

type LabelsOptions = { out: string; business?: string };

/**
 * `medlocker orders labels <refs…> --out labels.pdf`: the orders' bag labels as one PDF (a page per
 * label at the business's label size), from the api's GET /api/orders/labels.pdf, for a label printer
 * driven from a script. Each ref is an order's reference or barcode (in the businesses the user
 * reaches, or in --business), or its id.
 */
export function labelsCommand(orders: Command, io: CliIo): void {
  orders
    .command('labels')
    .description(`Write orders' bag labels to one PDF (at most ${labelsMax}; the business's label size)`)
    .argument('<refs...>', "each order's reference, barcode or id")
    .requiredOption('--out <file>', 'the PDF file to write')
    .option('--business <id|name>', 'look references and barcodes up in this business only')
    .action(async (refs: string[], options: LabelsOptions, command: Command) => {
      if (refs.length > labelsMax) throw new UsageError(`At most ${labelsMax} labels at once, not ${refs.length}`);
      const { ctx, client } = await signedIn(io, command);
      const businessId = options.business ? await businessIdOf(client, options.business) : undefined;
      const ids: string[] = [];
      for (const ref of refs) ids.push(await orderIdOf(client, ref, businessId));
      const query = new URLSearchParams({ ids: ids.join(',') });
      const response = await (io.fetch ?? fetch)(`${ctx.apiUrl}/api/orders/labels.pdf?${query}`, {
        headers: { authorization: `Bearer ${(await ctx.session()).token}` },
      });
      if (!response.ok) throw await apiErrorOf(response);
      const pdf = new Uint8Array(await response.arrayBuffer());
      const file = resolve(options.out);
      await writeFile(file, pdf);
      ctx.print(
        { file, labels: ids.length, bytes: pdf.length },
        () => `${counted(ids.length, 'label')} written to ${file}`,
      );
    });
}

/** The order a ref names: one order with that reference or barcode, else the ref itself as an id. */
async function orderIdOf(client: Client, ref: string, businessId: string | undefined): Promise<string> {
  const text = ref.trim();
  if (text === '') throw new UsageError('An order reference, barcode or id is empty');
  const { orders } = await client.call('orders', 'findOrders', { text });
  const same = (s: string) => s.trim().toLowerCase() === text.toLowerCase();
  const found = orders.filter(
    (o: Order) => (same(o.reference) || same(o.barcode)) && (businessId === undefined || o.businessId === businessId),
  );
  if (found.length > 1) {
    throw new CliRefusal(
      `${ref} names ${found.length} orders (${found.map((o) => o.businessName).join(', ')}): give --business`,
    );
  }
  return found[0]?.id ?? text;
}

/** The api's error body as the client's ApiError (SPEC §8 words, per-field details). */
async function apiErrorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string; details?: ApiError['details'] };
  } | null;
  return new ApiError(
    response.status,
    (body?.error?.code ?? 'UNEXPECTED_STATUS') as ApiError['code'],
    body?.error?.message ?? `Unexpected response status (${response.status})`,
    body?.error?.details ?? [],
  );
}
