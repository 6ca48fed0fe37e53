import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import type { Client } from '../client.ts';
import { type CliIo, CliRefusal, signedIn, UsageError } from '../context.ts';
import { patientIdByDisplayId } from '../patient-ref.ts';

/*
 * `medlocker patients erase | export-data` (docs/decisions/retention.md): a patient's erasure and the
 * answer to their subject access request, as in the console's patient page.
 */

type PatientOptions = { business?: string };

/** The internal id: as given, or (with --business) the business's patient whose Patient ID this is. */
async function patientIdOf(client: Client, given: string, options: PatientOptions): Promise<string> {
  if (!options.business) return given;
  const businessId = await businessIdOf(client, options.business);
  const id = await patientIdByDisplayId(client, businessId, given);
  if (!id) throw new CliRefusal(`No current patient with Patient ID ${given}`);
  return id;
}

/** On a terminal, type "yes"; elsewhere `--yes` says it. Anything else erases nothing. */
async function confirmed(io: CliIo, options: { yes?: boolean }, question: string): Promise<void> {
  if (options.yes) return;
  if (!io.interactive) throw new UsageError(`${question} Add --yes to confirm`);
  const answers = await io.ask([{ name: 'confirm', label: `${question} Type yes to confirm` }]);
  if (answers?.confirm?.trim().toLowerCase() !== 'yes') throw new CliRefusal('Nothing was erased');
}

/** A command on one patient, named by its id or (with --business) the Patient ID the business knows. */
function onePatient(patients: Command, name: string, description: string): Command {
  return patients
    .command(name)
    .description(description)
    .argument('<patient>', 'the patient: its id, or its Patient ID with --business')
    .option('--business <id|name>', 'read <patient> as the Patient ID the business knows');
}

export function patientDataCommands(patients: Command, io: CliIo): void {
  onePatient(
    patients,
    'erase',
    'Erase a patient: personal fields removed, orders kept anonymised for the figures (refused while an order is waiting or in a locker)',
  )
    .option('--yes', 'confirm without asking')
    .action(async (given: string, options: PatientOptions & { yes?: boolean }, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      const patientId = await patientIdOf(client, given, options);
      await confirmed(io, options, `Erase patient ${given}? This cannot be undone.`);
      const result = await client.call('dataProtection', 'erasePatient', { patientId });
      ctx.print(result, () => `Erased patient ${given} (${result.ordersAnonymised} orders anonymised)`);
    });

  onePatient(
    patients,
    'export-data',
    'Everything held about a patient (subject access request) as a ZIP: summary.html and data.json',
  )
    .option('--out <file>', 'the ZIP to write (created 0600); the name the server gives when left out')
    .action(async (given: string, options: PatientOptions & { out?: string }, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      const patientId = await patientIdOf(client, given, options);
      const file = await client.call('dataProtection', 'exportPatientData', { patientId });
      const path = options.out ?? file.fileName;
      const bytes = Buffer.from(file.data, 'base64');
      await writeFile(path, bytes, { mode: 0o600 });
      ctx.print({ file: path, bytes: bytes.length }, () => `Wrote the data held about patient ${given} to ${path}`);
    });
}
