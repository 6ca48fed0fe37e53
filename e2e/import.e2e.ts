import type { Page } from '@playwright/test';
import { asAdmin, expect as baseExpect, createBusiness, dropFile, logInAsAdmin, test } from './harness/fixtures.ts';

// Files are read and checked in a Web Worker and sent in batches: allow for a busy machine.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 90_000 });

/** The patient CSV import (SPEC §2, §4, §5): drop a file, say what its first line is, map, import. */

let businessId = '';

test.beforeEach(async ({ page }) => {
  businessId = (await createBusiness()).id;
  await logInAsAdmin(page, `/businesses/${businessId}/patients/import`);
  await expect(page.getByRole('heading', { name: 'Import patients' })).toBeVisible();
});

const goodAndBad = [
  'NHS Number,Given Name,Family Name,Mobile,DOB',
  '9434765919,Ada,Lovelace,07700 900123,10-12-1985',
  '9434765918,Bad,Number,07700900124,01-01-1990', // row 3: check digit wrong
  '9434765927,Charles,Babbage,07700900125,26/12/1971',
  ',,,,',
  '9434765935,Grace,Hopper,0161 496 0000,09-12-1976', // row 6: not a mobile
  '9434765943,Alan,Turing,+447700900126,1912-06-23',
].join('\r\n');

test('a dropped file with good and bad rows imports the good ones and lists the bad by row', async ({ page }) => {
  await expect(page.getByText('Drop the file here to upload')).toBeVisible();
  await dropFile(page.locator('.dropzone'), 'patients.csv', goodAndBad);

  await expect(page.getByText('What is on the first line of the file?')).toBeVisible();
  await expect(page.getByText('NHS Number, Given Name, Family Name, Mobile, DOB')).toBeVisible();
  await page.getByRole('button', { name: 'Field names' }).click();

  // The field names were recognised, so the mapping is complete.
  await expect(page.getByRole('button', { name: /NHS Number$/ })).toContainText('NHS Number');
  await expect(page.getByRole('button', { name: /DOB$/ })).toContainText('Date of Birth');
  const importButton = page.getByRole('button', { name: 'Import', exact: true });
  await expect(importButton).toBeEnabled();
  await importButton.click();

  await expect(page.getByRole('heading', { name: 'Import complete' })).toBeVisible();
  await expect(
    page.getByText('3 patients processed (3 added, 0 updated, 0 unchanged); 2 rows with errors.'),
  ).toBeVisible();
  const errors = page.getByRole('table', { name: 'Import errors' });
  await expect(errors.getByRole('row')).toHaveCount(3);
  await expect(errors.getByRole('row').nth(1)).toContainText('3');
  await expect(errors.getByRole('row').nth(1)).toContainText('invalid NHS number: 9434765918');
  await expect(errors.getByRole('row').nth(2)).toContainText('6');
  await expect(errors.getByRole('row').nth(2)).toContainText('invalid mobile number: 0161 496 0000');

  await page.getByRole('button', { name: 'Complete' }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${businessId}/patients$`));
  await expect(page.getByRole('link', { name: 'Ada Lovelace' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Alan Turing' })).toBeVisible();

  // The same file again changes nothing.
  await page.goto(`/businesses/${businessId}/patients/import`);
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'again.csv', mimeType: 'text/csv', buffer: Buffer.from(goodAndBad) });
  await page.getByRole('button', { name: 'Field names' }).click();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(
    page.getByText('3 patients processed (0 added, 0 updated, 3 unchanged); 2 rows with errors.'),
  ).toBeVisible();
});

test('a mapping that cannot be imported is refused with its reasons, and files without data are refused', async ({
  page,
}) => {
  await dropFile(page.locator('.dropzone'), 'empty.csv', '\r\n\r\n');
  await expect(page.getByText('The selected file contains no data.')).toBeVisible();

  await dropFile(page.locator('.dropzone'), 'ragged.csv', 'a,b,c\n1,2\n4,5,6');
  await expect(page.getByText('Errors encountered during parsing.')).toBeVisible();
  await expect(page.getByText('Row 2: Too few fields: expected 3 fields but parsed 2')).toBeVisible();

  // Only field names: refused once the first line is said to be field names, as an empty file is.
  await dropFile(page.locator('.dropzone'), 'header-only.csv', 'NHS Number,Full Name,Mobile\r\n,,\r\n');
  await page.getByRole('button', { name: 'Field names' }).click();
  await expect(page.getByText('The selected file contains no data.')).toBeVisible();
  await expect(page.getByText('Drop the file here to upload')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0);

  await dropFile(
    page.locator('.dropzone'),
    'data.csv',
    '9434765919,Ada Lovelace,07700900123\n9434765927,Charles Babbage,07700900125',
  );
  await page.getByRole('button', { name: 'Patient data' }).click();
  const importButton = page.getByRole('button', { name: 'Import', exact: true });
  await expect(importButton).toBeDisabled();
  await expect(page.getByText('Map exactly one ID column: Unique ID or NHS Number')).toBeVisible();
  await expect(page.getByText('Map a UK Mobile column')).toBeVisible();

  const choose = async (column: string, field: string) => {
    await page.getByRole('button', { name: new RegExp(`${column}$`) }).click();
    await page.getByRole('option', { name: field, exact: true }).click();
  };
  await choose('Column 1', 'NHS Number');
  await choose('Column 2', 'Full Name');
  await choose('Column 3', 'Full Name');
  await expect(page.getByText('Full Name is mapped to more than one column')).toBeVisible();
  await expect(importButton).toBeDisabled();

  // A sample row is shown beside the columns, and another can be asked for.
  await expect(page.getByText(/Ada Lovelace|Charles Babbage/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Show another sample' }).click();

  await choose('Column 3', 'UK Mobile');
  await expect(page.getByText('The mapping cannot be imported yet')).toHaveCount(0);
  await expect(importButton).toBeEnabled();
  await importButton.click();
  await expect(
    page.getByText('2 patients processed (2 added, 0 updated, 0 unchanged); 0 rows with errors.'),
  ).toBeVisible();
  await expect(page.getByText('No errors.')).toBeVisible();
});

/** Chooses a file whose first line names its fields, maps ID and Name by hand, and starts the import. */
async function importWithIdAndName(page: Page, name: string, rows: string[]) {
  await page
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
  await page.getByRole('button', { name: 'Field names' }).click();
  await page.getByRole('button', { name: /Name$/ }).click();
  await page.getByRole('option', { name: 'Full Name', exact: true }).click();
  await page.getByRole('button', { name: /ID$/ }).click();
  await page.getByRole('option', { name: 'Unique ID', exact: true }).click();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
}

test('a large import shows its progress and can be cancelled part way', async ({ page }) => {
  test.setTimeout(150_000);
  const rows = ['ID,Name,Mobile'];
  for (let i = 0; i < 60_000; i++)
    rows.push(`P${i},Patient ${i},07700${String(900000 + (i % 99999)).padStart(6, '0')}`);
  await importWithIdAndName(page, 'large.csv', rows);

  const progress = page.getByRole('progressbar', { name: 'Importing…' });
  await expect(progress).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back' })).toBeDisabled();
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 30_000 })
    .toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Cancel' }).click();

  await expect(page.getByRole('heading', { name: 'Import cancelled' })).toBeVisible({ timeout: 30_000 });
  const summary = await page.getByText(/patients processed/).textContent();
  const processed = Number(summary?.match(/^(\d+)/)?.[1]);
  expect(processed).toBeGreaterThan(0);
  expect(processed).toBeLessThan(60_000);
  expect(processed % 1024).toBe(0);

  const list = await asAdmin<{ patients: unknown[] }>('patients/list', { businessId });
  expect(list.patients.length).toBeGreaterThan(0);
});

test('a file of very long rows is sent in parts under the request size limit, and an ID repeated a batch later is refused', async ({
  page,
}) => {
  // 1,100 rows of ~1.1 KB: the first 1024-row batch is ~1.16 MB of JSON, over the API's 1 MB limit.
  const long = (label: string, i: number) => `${label} ${i} ${'Riverside Court Mews '.repeat(9)}`.slice(0, 200);
  const rows = ['ID,Name,Mobile,Email,Address 1,Address 2,Address 3,Town'];
  for (let i = 0; i < 1100; i++) {
    rows.push(
      [
        `L${i}`,
        `Patient ${i}`,
        `07700${String(900000 + i).padStart(6, '0')}`,
        `patient.${i}.${'x'.repeat(180)}@example.com`,
        long('Flat', i),
        long('Block', i),
        long('Estate', i),
        long('Town', i),
      ].join(','),
    );
  }
  // Row 1102, in the second 1024-row batch, repeats the ID of row 7: refused as the cli refuses it, not
  // sent on to overwrite the earlier patient and count as updated.
  rows.push(`L5,Someone Else,07700900999,,,,,`);
  await importWithIdAndName(page, 'long.csv', rows);

  await expect(page.getByRole('heading', { name: 'Import complete' })).toBeVisible({ timeout: 60_000 });
  await expect(
    page.getByText('1100 patients processed (1100 added, 0 updated, 0 unchanged); 1 row with errors.'),
  ).toBeVisible();
  const errors = page.getByRole('table', { name: 'Import errors' });
  await expect(errors.getByRole('row')).toHaveCount(2);
  await expect(errors.getByRole('row').nth(1)).toContainText('1102');
  await expect(errors.getByRole('row').nth(1)).toContainText('duplicate ID field: L5');
  const found = await asAdmin<{ patients: { displayId: string; name: string }[] }>('patients/list', {
    businessId,
    filter: 'L5',
  });
  expect(found.patients.find((p) => p.displayId === 'L5')?.name).toBe('Patient 5');
});

test('accented names in a file over 1 MiB arrive whole, even one split across a 1 MiB read', async ({ page }) => {
  // Papaparse read a File in 1 MiB slices, decoding each alone: a character whose UTF-8 bytes fell
  // either side of a slice's end arrived as U+FFFD. Here every name is accented and the file is shifted
  // so that the ë of one patient's name has one byte before byte 2^20 and one after.
  const rowOf = (i: number, pad: string) => `A${i},Zoë Brontë-Lefèvre ${i},07700${String(900000 + (i % 1000))},${pad}`;
  const textOf = (pad: string) =>
    ['ID,Name,Mobile,Note', ...Array.from({ length: 24_000 }, (_, i) => rowOf(i, i === 0 ? pad : ''))].join('\r\n');
  let pad = '';
  while ((Buffer.from(textOf(pad))[2 ** 20] as number) >> 6 !== 0b10) pad += 'x';
  const text = textOf(pad);
  const bytes = Buffer.from(text);
  expect(bytes.length).toBeGreaterThan(2 ** 20);
  // The line holding byte 2^20; line 0 holds the field names, so it is patient `line - 1`.
  const before = bytes.subarray(0, 2 ** 20).toString('utf8');
  const line = before.split('\r\n').length - 1;
  const split = line - 1;
  const splitName = `Zoë Brontë-Lefèvre ${split}`;
  expect(text.split('\r\n')[line]).toContain(splitName);

  await importWithIdAndName(page, 'accented.csv', [text]);
  await expect(page.getByRole('heading', { name: 'Import complete' })).toBeVisible({ timeout: 60_000 });
  await expect(
    page.getByText('24000 patients processed (24000 added, 0 updated, 0 unchanged); 0 rows with errors.'),
  ).toBeVisible();
  const found = await asAdmin<{ patients: { displayId: string; name: string }[] }>('patients/list', {
    businessId,
    filter: `A${split}`,
  });
  expect(found.patients.find((p) => p.displayId === `A${split}`)?.name).toBe(splitName);
});

test('the example file downloads and imports as it is, every patient good', async ({ page }) => {
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download an example file' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('patients-example.csv');
  const path = await download.path();
  await page.locator('input[type=file]').setInputFiles(path);
  await page.getByRole('button', { name: 'Field names' }).click();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Import complete' })).toBeVisible();
  await expect(
    page.getByText('3 patients processed (3 added, 0 updated, 0 unchanged); 0 rows with errors.'),
  ).toBeVisible();
  await expect(page.getByText('No errors.')).toBeVisible();
});

test('a worker that cannot start says so, and the next file is read by a new one', async ({ page }) => {
  // A page left open across a deploy asks for a worker script that is gone.
  const workerScript = /\/assets\/import\.worker-[^/]*\.js$/;
  await page.route(workerScript, (route) => route.fulfill({ status: 404, body: '' }));
  await page.reload();
  const input = page.locator('input[type=file]');
  const file = { name: 'patients.csv', mimeType: 'text/csv', buffer: Buffer.from(goodAndBad) };
  await input.setInputFiles(file);
  await expect(page.getByText('An unknown error occurred')).toBeVisible();
  await expect(page.getByText('Reading the file…')).toHaveCount(0);

  await page.unroute(workerScript);
  await input.setInputFiles(file);
  await expect(page.getByRole('button', { name: 'Field names' })).toBeVisible();
});
