/** Opening hours assumed for every business (none is recorded): Monday–Saturday 09:00–18:00 London. */
export const defaultOpeningHours = { days: [1, 2, 3, 4, 5, 6], fromHour: 9, toHour: 18 } as const;
