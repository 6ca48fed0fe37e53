/** When a message in the local mailbox was sent, in the UK's time: '2 Nov 2026, 09:30:00'. */
export const sentAt = (ms: number) =>
  new Date(ms).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Europe/London' });
