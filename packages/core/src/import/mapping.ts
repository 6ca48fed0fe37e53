import type { CsvFieldKind } from '../patient/imported-patient.ts';

/** How each CSV field kind is named to a person choosing the mapping. */
export const csvFieldLabels: Record<CsvFieldKind, string> = {
  ID: 'Unique ID',
  NhsNumber: 'NHS Number',
  FullName: 'Full Name',
  GivenName: 'Given Name',
  FamilyName: 'Family Name',
  Mobile: 'UK Mobile',
  Email: 'Email',
  DateOfBirth: 'Date of Birth',
  AddressLine1: 'Address Line 1',
  AddressLine2: 'Address Line 2',
  AddressLine3: 'Address Line 3',
  PostTown: 'Post Town',
  Postcode: 'Postcode',
};

/** Column i of the file is mapped to `mapping[i]`, or ignored when null. */
export type CsvMapping = ReadonlyArray<CsvFieldKind | null>;

/** The mapping turned into column indexes, for the per-row check (built once per import). */
export type MappingPlan = { [K in CsvFieldKind]?: number };

export const mappingMessages = {
  id: 'Map exactly one ID column: Unique ID or NHS Number',
  name: 'Map a name: Full Name, or both Given Name and Family Name',
  nameStyles: 'Map either Full Name or Given Name and Family Name, not both',
  mobile: 'Map a UK Mobile column',
  duplicate: (kind: CsvFieldKind) => `${csvFieldLabels[kind]} is mapped to more than one column`,
} as const;

/**
 * SPEC §5 file-level mapping rules: exactly one ID (Unique ID or NHS Number), a name as Full Name or
 * Given plus Family (never both styles), a UK Mobile, and no field mapped twice. Returns the
 * problems in the words shown to the user; an empty list means the mapping can be imported.
 */
export function checkMapping(mapping: CsvMapping): string[] {
  const problems: string[] = [];
  const seen = new Map<CsvFieldKind, number>();
  for (const kind of mapping) if (kind) seen.set(kind, (seen.get(kind) ?? 0) + 1);
  for (const [kind, count] of seen) if (count > 1) problems.push(mappingMessages.duplicate(kind));
  if (Number(seen.has('ID')) + Number(seen.has('NhsNumber')) !== 1) problems.push(mappingMessages.id);
  const full = seen.has('FullName');
  const parts = seen.has('GivenName') || seen.has('FamilyName');
  if (full && parts) problems.push(mappingMessages.nameStyles);
  else if (!full && !(seen.has('GivenName') && seen.has('FamilyName'))) problems.push(mappingMessages.name);
  if (!seen.has('Mobile')) problems.push(mappingMessages.mobile);
  return problems;
}

/** The column index of each mapped kind; call only with a mapping that {@link checkMapping} accepts. */
export function planOf(mapping: CsvMapping): MappingPlan {
  const plan: MappingPlan = {};
  mapping.forEach((kind, index) => {
    if (kind) plan[kind] = index;
  });
  return fixedPlan(plan);
}

/**
 * The same plan as an object with every kind present (undefined when unmapped), always in the same
 * order: every plan then has one shape, and reading it on every row of an import stays a fixed-offset
 * load instead of a lookup that misses into the prototype chain.
 */
export function fixedPlan(plan: MappingPlan): MappingPlan {
  return {
    ID: plan.ID,
    NhsNumber: plan.NhsNumber,
    FullName: plan.FullName,
    GivenName: plan.GivenName,
    FamilyName: plan.FamilyName,
    DateOfBirth: plan.DateOfBirth,
    Email: plan.Email,
    Mobile: plan.Mobile,
    AddressLine1: plan.AddressLine1,
    AddressLine2: plan.AddressLine2,
    AddressLine3: plan.AddressLine3,
    PostTown: plan.PostTown,
    Postcode: plan.Postcode,
  } satisfies Record<CsvFieldKind, number | undefined>;
}
