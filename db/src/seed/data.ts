/*
 * The people and places of the demo seed. Everything here is made up: names are common British names,
 * mobile numbers are in Ofcom's drama range (07700 900000 to 900999, never allocated), NHS numbers are
 * in the 999 test range, and email addresses use the reserved example.com and example.org domains, so
 * a demo never messages a real person.
 */

export type DemoAddress = {
  line1: string;
  line2: string | null;
  line3: string | null;
  postTown: string;
  postcode: string;
};

/** Ofcom drama-range mobile, stored the way the app normalises it: 07700 900123 → +447700900123. */
export const dramaMobile = (n: number): string => `+447700900${String(n).padStart(3, '0')}`;

/**
 * The NHS number mod-11 rule: weights 10 down to 2 on the first nine digits; 11 minus the remainder is
 * the check digit, 11 becomes 0, and 10 means no valid number has those nine digits.
 */
export function nhsCheckDigit(firstNine: string): number | undefined {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(firstNine[i]) * (10 - i);
  const result = 11 - (sum % 11);
  if (result === 11) return 0;
  return result === 10 ? undefined : result;
}

/** `count` valid NHS numbers in the 999 test range, skipping nine-digit stems that have no check digit. */
export function testNhsNumbers(count: number, start = 123_001): string[] {
  const numbers: string[] = [];
  for (let stem = start; numbers.length < count; stem++) {
    const firstNine = `999${String(stem).padStart(6, '0')}`;
    const check = nhsCheckDigit(firstNine);
    if (check !== undefined) numbers.push(`${firstNine}${check}`);
  }
  return numbers;
}

export const DEMO_GROUPS = [
  {
    key: 'midlands',
    name: 'Midlands Community Pharmacies',
    email: 'office@midlands-pharmacies.example.org',
    address: {
      line1: 'Unit 4, Ladywood Works',
      line2: 'Lionel Street',
      line3: null,
      postTown: 'Birmingham',
      postcode: 'B3 1AR',
    },
  },
  {
    key: 'northwest',
    name: 'North West Pharmacy Partners',
    email: 'hello@nw-pharmacy-partners.example.org',
    address: {
      line1: '2nd Floor, 55 Princess Street',
      line2: null,
      line3: null,
      postTown: 'Manchester',
      postcode: 'M2 4EW',
    },
  },
] as const;

export const DEMO_BUSINESSES = [
  {
    key: 'harborne',
    name: 'Harborne High Street Pharmacy',
    email: 'harborne@pharmacy.example.com',
    address: { line1: '172 High Street', line2: 'Harborne', line3: null, postTown: 'Birmingham', postcode: 'B17 9PP' },
    group: 'midlands',
    keyholders: [dramaMobile(101), dramaMobile(102)],
    notificationEmails: ['harborne@pharmacy.example.com', 'manager.harborne@pharmacy.example.com'],
    archived: false,
  },
  {
    key: 'chorlton',
    name: 'Chorlton Green Chemist',
    email: 'dispensary@chorlton-chemist.example.com',
    address: {
      line1: '3 Beech Road',
      line2: 'Chorlton-cum-Hardy',
      line3: null,
      postTown: 'Manchester',
      postcode: 'M21 9EG',
    },
    group: null,
    keyholders: [dramaMobile(201)],
    notificationEmails: ['dispensary@chorlton-chemist.example.com'],
    archived: false,
  },
  {
    key: 'clifton',
    name: 'Clifton Village Pharmacy',
    email: 'info@clifton-village-pharmacy.example.com',
    address: {
      line1: '21 Princess Victoria Street',
      line2: 'Clifton',
      line3: null,
      postTown: 'Bristol',
      postcode: 'BS8 4BX',
    },
    group: null,
    keyholders: [dramaMobile(301)],
    notificationEmails: ['info@clifton-village-pharmacy.example.com'],
    archived: true,
  },
] as const;

export type DemoBusinessKey = (typeof DEMO_BUSINESSES)[number]['key'];

export const DEMO_MACHINES: {
  business: DemoBusinessKey;
  name: string;
  slots: number;
  payments: boolean;
  test?: boolean;
  outOfOrder?: boolean;
  archived?: boolean;
}[] = [
  { business: 'harborne', name: 'Front Window', slots: 60, payments: true },
  { business: 'harborne', name: 'Car Park', slots: 40, payments: false, outOfOrder: true },
  { business: 'harborne', name: 'Bench Test Rig', slots: 12, payments: true, test: true },
  { business: 'chorlton', name: 'Main Entrance', slots: 48, payments: true },
  { business: 'chorlton', name: 'Beech Road Door', slots: 24, payments: false },
  { business: 'clifton', name: 'Shopfront', slots: 36, payments: false, archived: true },
];

/** [given name, family name, date of birth] */
const PEOPLE: [string, string, string][] = [
  ['Olivia', 'Smith', '1948-03-14'],
  ['Jack', 'Jones', '1962-11-02'],
  ['Amelia', 'Taylor', '1975-07-23'],
  ['Harry', 'Brown', '1990-01-30'],
  ['Isla', 'Williams', '1983-05-09'],
  ['George', 'Wilson', '1939-09-17'],
  ['Ava', 'Johnson', '2001-12-05'],
  ['Noah', 'Davies', '1957-04-21'],
  ['Mia', 'Patel', '1969-08-11'],
  ['Oliver', 'Robinson', '1944-02-28'],
  ['Grace', 'Wright', '1996-10-03'],
  ['Arthur', 'Thompson', '1951-06-19'],
  ['Sophia', 'Evans', '1987-03-08'],
  ['Leo', 'Walker', '1972-12-24'],
  ['Freya', 'Khan', '1999-05-15'],
  ['Oscar', 'Roberts', '1936-01-12'],
  ['Lily', 'Green', '1964-09-27'],
  ['Charlie', 'Hall', '1980-07-01'],
  ['Emily', 'Hughes', '1958-11-16'],
  ['Thomas', "O'Connor", '1993-04-04'],
];

const STREETS: Record<DemoBusinessKey, { street: string; area: string; postTown: string; postcodes: string[] }> = {
  harborne: {
    street: 'Lordswood Road',
    area: 'Harborne',
    postTown: 'Birmingham',
    postcodes: ['B17 9QS', 'B17 8BY', 'B17 0HG'],
  },
  chorlton: {
    street: 'Wilbraham Road',
    area: 'Chorlton',
    postTown: 'Manchester',
    postcodes: ['M21 9AS', 'M21 0UF', 'M21 8BT'],
  },
  clifton: { street: 'Whiteladies Road', area: 'Clifton', postTown: 'Bristol', postcodes: ['BS8 2PH'] },
};

export type DemoPatient = {
  business: DemoBusinessKey;
  givenName: string;
  familyName: string;
  dateOfBirth: string;
  nhsNumber: string;
  mobileNumber: string;
  email: string | null;
  address: DemoAddress;
};

/** Twenty patients: twelve at Harborne, eight at Chorlton, each with a valid test NHS number. */
export function demoPatients(): DemoPatient[] {
  const nhsNumbers = testNhsNumbers(PEOPLE.length);
  return PEOPLE.map(([givenName, familyName, dateOfBirth], i) => {
    const business: DemoBusinessKey = i < 12 ? 'harborne' : 'chorlton';
    const street = STREETS[business];
    const emailName = `${givenName}.${familyName}`.toLowerCase().replace(/[^a-z.]/g, '');
    return {
      business,
      givenName,
      familyName,
      dateOfBirth,
      nhsNumber: nhsNumbers[i] ?? '',
      mobileNumber: dramaMobile(400 + i),
      // every third patient has no email, so SMS-only flows show up in the demo
      email: i % 3 === 2 ? null : `${emailName}@example.com`,
      address: {
        line1: `${10 + i * 7} ${street.street}`,
        line2: street.area,
        line3: null,
        postTown: street.postTown,
        postcode: street.postcodes[i % street.postcodes.length] ?? '',
      },
    };
  });
}

/**
 * Example pharmacy-system suppliers for the integration partner list that support maintains (SPEC §9:
 * 2 suppress patient messages, 3 do not). Named as examples: they are not real companies.
 */
export const DEMO_INTEGRATION_PARTNERS = [
  { name: 'Apex PMR (example)', contactEmail: 'integrations@apexpmr.example', suppressPatientMessages: true },
  { name: 'ScriptLink Systems (example)', contactEmail: 'partners@scriptlink.example', suppressPatientMessages: true },
  { name: 'Dispensary One (example)', contactEmail: 'api@dispensaryone.example', suppressPatientMessages: false },
  { name: 'Pharmacy Cloud Manager (example)', contactEmail: 'support@pcm.example', suppressPatientMessages: false },
  { name: 'RxTrack (example)', contactEmail: 'integrations@rxtrack.example', suppressPatientMessages: false },
] as const;
