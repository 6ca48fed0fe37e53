/**
 * A realistic patient list for the import benchmark: test-range NHS numbers with valid check digits,
 * Ofcom drama mobiles written the ways surgeries write them, UK addresses with a quoted flat line and a
 * locality, ~140 bytes a row (100,000 rows ≈ 14 MB). The two address columns come last, so a mapping of
 * the first nine columns still reads the file.
 */
const GIVEN = [
  'Olivia',
  'Amelia',
  'Isla',
  'Ava',
  'Mia',
  'Noah',
  'Oliver',
  'George',
  'Arthur',
  'Muhammad',
  'Leo',
  'Harry',
  'Margaret',
  'Siobhan',
  'Rhys',
];
const FAMILY = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Robinson',
  "O'Neill",
  'Evans',
  'Khan',
  'MacDonald',
];
const STREETS = [
  'High Street',
  'Station Road',
  'Church Lane',
  'Victoria Road',
  'Green Lane',
  'Manor Road',
  'Park Avenue',
];
const BUILDINGS = [
  'Riverside Court',
  'Victoria House',
  'The Maltings',
  'Queens Mansions',
  'Mill View',
  'St John’s Close',
];
const LOCALITIES = ['Headingley', 'Didsbury', 'Clifton', 'Roath', 'Acomb', 'Pimlico', 'Chapel Allerton'];
const TOWNS: [string, string][] = [
  ['LEEDS', 'LS1 4AP'],
  ['MANCHESTER', 'M1 1AE'],
  ['BRISTOL', 'BS1 4DJ'],
  ['CARDIFF', 'CF10 1EP'],
  ['YORK', 'YO1 7HH'],
  ['LONDON', 'SW1A 1AA'],
];

function nhsNumber(i: number): string {
  // 999 + 6 digits, then the mod-11 check digit; skip the numbers whose check would be 10. Row i starts
  // at 2i and falls back to 2i + 1 (two neighbours never both check to 10), so every row's number is
  // its own: an upsert on the display id stores all of them.
  for (let n = i * 2; ; n += 1) {
    const nine = `999${String(n % 1_000_000).padStart(6, '0')}`;
    let sum = 0;
    for (let k = 0; k < 9; k++) sum += Number(nine[k]) * (10 - k);
    const check = 11 - (sum % 11);
    if (check === 10) continue;
    return nine + (check === 11 ? '0' : String(check));
  }
}

/** How the generated file's columns map onto a patient (what `medlocker patients import --map` would say). */
export const generatedMapping = [
  'NhsNumber',
  'GivenName',
  'FamilyName',
  'DateOfBirth',
  'Mobile',
  'Email',
  'AddressLine1',
  'PostTown',
  'Postcode',
  'AddressLine2',
  'AddressLine3',
] as const;

export function generatePatientCsv(rows: number): string {
  const lines = [
    'NHS Number,Given Name,Family Name,Date of Birth,Mobile,Email,Address 1,Town,Postcode,Address 2,Address 3',
  ];
  for (let i = 0; i < rows; i++) {
    const given = GIVEN[i % GIVEN.length] as string;
    const family = FAMILY[(i * 7) % FAMILY.length] as string;
    const [town, postcode] = TOWNS[i % TOWNS.length] as [string, string];
    const day = String((i % 28) + 1).padStart(2, '0');
    const month = String((i % 12) + 1).padStart(2, '0');
    const mobile =
      i % 3 === 0 ? `07700 900${String(i % 1000).padStart(3, '0')}` : `+447700900${String(i % 1000).padStart(3, '0')}`;
    lines.push(
      [
        nhsNumber(i),
        given,
        `"${family}"`,
        `${day}-${month}-${1930 + (i % 80)}`,
        mobile,
        `${given.toLowerCase()}.${i}@example.com`,
        `${(i % 200) + 1} ${STREETS[i % STREETS.length]}`,
        town,
        postcode,
        `"Flat ${(i % 60) + 1}, ${BUILDINGS[i % BUILDINGS.length]}"`,
        LOCALITIES[i % LOCALITIES.length],
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
