// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject of these tests.
import { describe, expect, it } from 'bun:test';
import { renderTemplate } from '../format/template.ts';
import { roleDescription } from '../user/roles.ts';
import { alarmTemplateCodes, defaultAlarmMessages, machineAlertCodes, machineAlerts } from './machine-alerts.ts';
import { emptyStates, loginFailureMessage, messages } from './messages.ts';

describe('machine alerts', () => {
  it('lists EM_0001 to EM_0024, MP_0001 to MP_0005, the connection codes MP_0006 and MP_0007 and the keypad MP_0008, the slot count MP_0009 and the locker commands MP_0010 to MP_0012 and the alarm steps MP_0013 to MP_0015', () => {
    expect(machineAlertCodes).toHaveLength(39);
    expect(machineAlerts.MP_0014).toEqual({ name: 'AlarmEscalated', level: 'info' });
    expect(machineAlerts.MP_0012).toEqual({ name: 'RestartRequested', level: 'info' });
    expect(machineAlerts.MP_0009).toEqual({ name: 'SlotCountMismatch', level: 'warn' });
    expect(machineAlerts.MP_0008).toEqual({ name: 'PinGuessing', level: 'warn' });
    expect(machineAlerts.MP_0006).toEqual({ name: 'MachineOffline', level: 'warn' });
    expect(machineAlerts.MP_0007).toEqual({ name: 'MachineOnline', level: 'info' });
    expect(machineAlerts.EM_0003).toEqual({ name: 'MainsPowerFailure', level: 'critical' });
    expect(machineAlerts.EM_0019).toEqual({ name: 'MachineBootingUp', level: 'info' });
    expect(machineAlerts.MP_0001.name).toBe('TemperatureExcursion');
  });

  it('ends every default alarm message with the link to the fix', () => {
    for (const code of alarmTemplateCodes)
      expect(defaultAlarmMessages[code]).toEndWith('Go to ${supportArticle} to find the fix.');
  });

  it('renders the temperature message with the average over the last 3 hours', () => {
    const text = renderTemplate(defaultAlarmMessages.MP_0001, {
      machineAndBusiness: 'Locker 1 at High St Pharmacy',
      temperature: '9.2°C',
      supportArticle: 'https://support.example/temperature',
    });
    expect(text).toContain('over the last 3 hours');
    expect(text).toContain('average temperature of 9.2°C');
    expect(text).toEndWith('Go to https://support.example/temperature to find the fix.');
  });

  it('keeps the SPEC phrases in the right messages', () => {
    expect(defaultAlarmMessages.EM_0001).toContain('collector will need to be checked and cleared');
    expect(defaultAlarmMessages.EM_0003).toContain('check your mains supply and reset your unit');
    expect(defaultAlarmMessages.EM_0009).toContain('prevents further collections');
    expect(defaultAlarmMessages.EM_0016).toContain(
      'post box has been left open or someone has tried to gain access without entering the security code',
    );
  });
});

describe('messages', () => {
  it('puts the product name into product messages', () => {
    expect(messages.serverUnreachable('MedLocker')).toBe('The MedLocker server could not be reached');
  });

  it('maps login failures to their messages', () => {
    expect(loginFailureMessage('InvalidCredentials')).toBe('Invalid username or password');
    expect(loginFailureMessage('TooManyAttempts')).toBe(
      'Your account has been temporarily disabled due to too many incorrect login attempts. Please try again in 5 minutes.',
    );
    expect(loginFailureMessage('ForceReset')).toBeUndefined();
  });

  it('words empty groups by tab', () => {
    expect(emptyStates.groups(true)).toBe('No archived groups found.');
    expect(emptyStates.groups(false)).toBe('No active groups found.');
  });
});

describe('roleDescription', () => {
  it('describes each role as SPEC §6 does', () => {
    expect(roleDescription('Support')).toBe('Access to support portal');
    expect(roleDescription('Developer')).toBe('Access to developer features');
    expect(roleDescription('Business', 'High St Pharmacy')).toBe('Access to Business - High St Pharmacy');
    expect(roleDescription('Group', 'North', true)).toBe('Administrator access to Group - North');
  });
});
