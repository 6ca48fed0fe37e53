import { readFile } from 'node:fs/promises';
import { isArkErrors, maxCollectionWindowDays, QrPayload, signQrCode } from '@medlocker/core';
import type { Command } from 'commander';
import { type CliIo, contextOf, UsageError } from '../context.ts';

type QrSignOptions = {
  keyFile: string;
  business: string;
  patient: string;
  barcode: string;
  expires?: string;
  window?: string;
};

/** The payload the options describe, checked as the api will check it. */
function payloadOf(options: QrSignOptions): QrPayload {
  const expires = options.expires === undefined ? undefined : Date.parse(`${options.expires}T23:59:59.999Z`);
  if (expires !== undefined && Number.isNaN(expires)) throw new UsageError('--expires must be a date, YYYY-MM-DD');
  const payload = QrPayload({
    business: options.business,
    patient: options.patient,
    barcode: options.barcode,
    ...(expires === undefined ? {} : { expires }),
    ...(options.window === undefined ? {} : { collectionWindow: Number(options.window) }),
  });
  if (isArkErrors(payload)) {
    throw new UsageError(
      `Not a QR code's order (--window is 1 to ${maxCollectionWindowDays} days): ${payload.summary}`,
    );
  }
  return payload;
}

/**
 * `medlocker orders qr-sign`: the text of a bag's QR code, signed offline with the business's QR signing
 * key (docs/ORDERS.md "QR-code orders"), as a pharmacy system makes it: for trying a scanner, a locker
 * or the console without one. Needs no sign-in; the key is read from a file so it stays out of shell history.
 */
export function qrSignCommand(orders: Command, io: CliIo): void {
  orders
    .command('qr-sign')
    .description("Print a bag's QR code text (MLQR1), signed with the business's QR signing key; offline")
    .requiredOption('--key-file <file>', 'a file holding the QR signing key (mlqr_…), as the console showed it')
    .requiredOption('--business <id>', "the business's id")
    .requiredOption('--patient <id>', "the patient's id in the pharmacy system (their Patient ID or NHS number)")
    .requiredOption('--barcode <barcode>', "the bag's barcode")
    .option('--expires <date>', 'refuse the code after this day (YYYY-MM-DD, end of day UTC)')
    .option('--window <days>', "collection window in days (else the business's default)")
    .action(async (options: QrSignOptions, command: Command) => {
      const key = (await readFile(options.keyFile, 'utf8')).trim();
      if (!/^mlqr_[A-Za-z0-9_-]{43}$/.test(key)) throw new UsageError(`${options.keyFile} holds no QR signing key`);
      const payload = payloadOf(options);
      const code = await signQrCode(key, payload);
      contextOf(io, command).print({ qrCode: code, payload }, () => code);
    });
}
