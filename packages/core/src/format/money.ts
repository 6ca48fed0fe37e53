const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', minimumFractionDigits: 2 });

/** Pence as pounds for people: 980 → '£9.80', 123456 → '£1,234.56', -50 → '-£0.50'. */
export function formatPence(pence: number): string {
  // Integer pence divided once: no float drift worth a penny at any realistic amount.
  return pounds.format(pence / 100);
}

/** Pence as the plain amount a charge field shows for editing: 980 → '9.80' (what `Charge` reads back). */
export function penceToAmountText(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(pence));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
