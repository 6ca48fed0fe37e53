import { expect, it } from 'bun:test';
import { renderTemplate } from '../format/template.ts';
import { fixedPatientMessages } from './patient-messages.ts';

const typical = {
  businessName: 'High Street Pharmacy',
  machineName: 'Front counter',
  machineAndBusiness: 'Front counter at High Street Pharmacy',
  expires: '27 November 2026 at 18:30',
};

it('words the fixed messages (expired, cancelled, PIN held and released) in one SMS page with typical names, every placeholder filled', () => {
  for (const [key, template] of Object.entries(fixedPatientMessages)) {
    const text = renderTemplate(template, typical);
    expect([key, text.length <= 160]).toEqual([key, true]);
    expect(text).not.toContain('${');
  }
  expect(renderTemplate(fixedPatientMessages.orderExpired, typical)).toBe(
    'Your order from High Street Pharmacy was not collected by 27 November 2026 at 18:30, so its PIN no longer works. Please contact High Street Pharmacy.',
  );
});
