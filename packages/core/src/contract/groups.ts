import { type } from 'arktype';
import { Group } from '../business/group.ts';
import { ArchivedStamp } from '../stamps.ts';
import { RequiredLine } from '../validation/general.ts';
import { Id, IdOrNull, stringLimits, upTo } from '../validation/string-limits.ts';
import { Filter, infoPageSize, logoMethods, OptionalEmail, OptionalLine, OptionalPostcode } from './businesses.ts';
import { defineArea, staff, supportOnly } from './define.ts';
import { byId } from './method-builders.ts';
import { Paging } from './paging.ts';

export { Group, infoPageSize };

/** What a picker or a role's resource cell needs of a group. */
export const GroupInfo = type({ id: 'string', name: 'string', archived: ArchivedStamp.or('null') });
export type GroupInfo = typeof GroupInfo.infer;

/**
 * What staff fill in to add or edit a group. SPEC §5 leaves the group form's rules unstated: the name
 * is required; email and every address line may be left out, but an email or postcode given must be
 * valid (postcode stored 'SW1A 1AA'). `parentId` nests the group under another (no cycles).
 */
export const GroupForm = type({
  name: upTo(stringLimits.businessName, RequiredLine).pipe((s) => s.trim()),
  'email?': OptionalEmail,
  'address?': {
    'line1?': OptionalLine,
    'line2?': OptionalLine,
    'line3?': OptionalLine,
    'postTown?': OptionalLine,
    'postcode?': OptionalPostcode,
  },
  'parentId?': IdOrNull,
});
export type GroupForm = typeof GroupForm.inferIn;

export const groups = defineArea({
  listGroups: {
    input: type({
      /** true: the Archived tab; false or absent: the Active tab. */
      'archived?': 'boolean',
      'filter?': Filter,
      ...Paging,
    }),
    output: type({ groups: Group.array(), nextToken: 'string | null' }),
    access: staff('filtered'),
    summary: 'Groups by name, active or archived: case-insensitive name prefix, 25 a page, keyset paged.',
  },
  listGroupsInfo: {
    input: type({
      'filter?': Filter,
      ...Paging,
    }),
    output: type({ data: GroupInfo.array(), nextToken: 'string | null' }),
    access: supportOnly,
    summary: 'Groups by name for pickers (Add role): prefix search, 25 a page, keyset paged.',
  },
  listAccessibleGroups: {
    input: type({ 'filter?': Filter, ...Paging }),
    output: type({ groups: GroupInfo.array(), nextToken: 'string | null' }),
    access: staff('filtered'),
    summary: "Active groups the caller may use: all for support staff, else those of the caller's Group roles.",
  },
  createGroup: {
    input: GroupForm,
    output: type({ group: Group }),
    access: supportOnly,
    summary: 'Adds a group (name required; email and postcode checked when given).',
  },
  updateGroup: {
    input: GroupForm.and({ id: Id }),
    output: type({ group: Group }),
    access: staff({ group: ['id', 'parentId'] }, true),
    summary: 'Changes a group that is not archived (409 when archived); the logo has its own methods.',
  },
  getGroup: byId({
    output: type({ group: Group }),
    access: staff({ group: 'id' }),
    summary: 'A group with its archive mark and logo.',
  }),
  archiveGroup: byId({
    output: type({ group: Group }),
    access: supportOnly,
    summary:
      'Archives a group, recording when and by whom: no businesses linked or users added until unarchived; pushes `archived`.',
  }),
  unarchiveGroup: byId({
    output: type({ group: Group }),
    access: supportOnly,
    summary: 'Unarchives a group; pushes `unarchived` to consoles watching it.',
  }),
  ...logoMethods('group', type({ group: Group })),
});
