/**
 * A collection PIN as patients read it (SPEC §9): the first 4 digits, a space, then the rest.
 * '12345678' → '1234 5678'; a PIN of 4 digits or fewer is unchanged.
 */
export function formatPin(pin: string): string {
  return pin.length > 4 ? `${pin.slice(0, 4)} ${pin.slice(4)}` : pin;
}
