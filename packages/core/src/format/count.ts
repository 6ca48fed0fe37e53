/**
 * A number with its noun, singular for one: `counted(1, 'row')` → "1 row", `counted(3, 'row')` →
 * "3 rows", `counted(2, 'patient', 'patients')`. English plurals that are not "+s" are passed in.
 */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
