import { describe, expect, it } from 'bun:test';
import { counted } from './count.ts';
import { formatDate, formatDateTime, formatLongDate, formatTime, londonDayStart, toIsoDate } from './date.ts';
import { formatMinutes } from './duration.ts';
import { formatFileSize } from './file-size.ts';
import { formatPence, penceToAmountText } from './money.ts';
import { formatPin } from './pin.ts';
import { smsLength, smsPageCount, smsPreviewCaption } from './sms.ts';
import { formatTemperature } from './temperature.ts';

describe('formatPence', () => {
  it('shows pounds with two decimals', () => {
    expect(formatPence(980)).toBe('£9.80');
    expect(formatPence(5)).toBe('£0.05');
    expect(formatPence(0)).toBe('£0.00');
  });

  it('groups thousands and signs negatives', () => {
    expect(formatPence(123456)).toBe('£1,234.56');
    expect(formatPence(-50)).toBe('-£0.50');
  });

  it('gives the editable amount Charge reads back', () => {
    expect(penceToAmountText(980)).toBe('9.80');
    expect(penceToAmountText(5)).toBe('0.05');
    expect(penceToAmountText(123456)).toBe('1234.56');
  });
});

describe('formatMinutes', () => {
  it('shows hours up to 48 hours', () => {
    expect(formatMinutes(0)).toBe('0 hours');
    expect(formatMinutes(60)).toBe('1 hour');
    expect(formatMinutes(90)).toBe('1.5 hours');
    expect(formatMinutes(180)).toBe('3 hours');
    expect(formatMinutes(48 * 60)).toBe('48 hours');
  });

  it('shows days with one decimal beyond 48 hours', () => {
    expect(formatMinutes(48 * 60 + 1)).toBe('2.0 days');
    expect(formatMinutes(60 * 60)).toBe('2.5 days');
    expect(formatMinutes(72 * 60)).toBe('3.0 days');
  });

  it('treats negative durations as none', () => {
    expect(formatMinutes(-5)).toBe('0 hours');
  });
});

describe('dates', () => {
  it('formats YYYY-MM-DD as written, whatever the time zone', () => {
    expect(formatDate('2024-03-05')).toBe('05-03-2024');
    expect(formatLongDate('2024-03-05')).toBe('05 March 2024');
    expect(formatLongDate('1999-12-31')).toBe('31 December 1999');
  });

  it('reads timestamps on the London calendar, summer and winter', () => {
    // 23:30 UTC on 30 June is 00:30 BST on 1 July.
    expect(formatDate(Date.UTC(2024, 5, 30, 23, 30))).toBe('01-07-2024');
    // In winter London is on UTC.
    expect(formatLongDate(Date.UTC(2024, 0, 31, 23, 30))).toBe('31 January 2024');
    expect(toIsoDate(Date.UTC(2024, 5, 30, 23, 30))).toBe('2024-07-01');
  });

  it("tells a moment's date and time on London's clock, 24-hour", () => {
    // 23:30:05 UTC on 30 June is 00:30:05 BST on 1 July; 13:05 UTC in January is 13:05 GMT.
    expect(formatDateTime(Date.UTC(2024, 5, 30, 23, 30, 5))).toBe('01-07-2024 00:30:05');
    expect(formatDateTime(Date.UTC(2024, 0, 9, 13, 5, 0))).toBe('09-01-2024 13:05:00');
    expect(formatTime(Date.UTC(2024, 0, 9, 0, 7, 59), { seconds: false })).toBe('00:07');
  });

  it('refuses text that is not YYYY-MM-DD', () => {
    expect(() => formatDate('5/3/2024')).toThrow(RangeError);
  });
});

describe('formatPin', () => {
  it('shows the first 4 digits, a space, then the rest', () => {
    expect(formatPin('12345678')).toBe('1234 5678');
    expect(formatPin('123456')).toBe('1234 56');
    expect(formatPin('1234')).toBe('1234');
    expect(formatPin('')).toBe('');
  });
});

describe('SMS pages', () => {
  it('counts 160 characters a page and no page for no text', () => {
    expect(smsPageCount('')).toBe(0);
    expect(smsPageCount('a')).toBe(1);
    expect(smsPageCount('a'.repeat(160))).toBe(1);
    expect(smsPageCount('a'.repeat(161))).toBe(2);
    expect(smsPageCount('a'.repeat(321))).toBe(3);
  });

  it('counts an emoji as one letter', () => {
    expect(smsLength('💊ok')).toBe(3);
  });

  it('captions the preview in the SPEC wording', () => {
    expect(smsPreviewCaption('a'.repeat(161))).toBe('Example SMS (161 letters / 2 pages)');
    expect(smsPreviewCaption('a'.repeat(44))).toBe('Example SMS (44 letters / 1 page)');
  });
});

describe('formatFileSize', () => {
  it('shows bytes, whole KB rounded up, and MB with one decimal', () => {
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(512)).toBe('512 bytes');
    expect(formatFileSize(300 * 1024)).toBe('300 KB');
    expect(formatFileSize(262_145)).toBe('257 KB');
    expect(formatFileSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});

describe('formatTemperature', () => {
  it('shows one decimal and °C', () => {
    expect(formatTemperature(9.23)).toBe('9.2°C');
    expect(formatTemperature(-1)).toBe('-1.0°C');
  });
});

describe('londonDayStart', () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  it("is London's midnight: UTC in winter, 23:00 UTC the day before in summer", () => {
    expect(iso(londonDayStart('2026-01-15'))).toBe('2026-01-15T00:00:00.000Z');
    expect(iso(londonDayStart('2026-07-01'))).toBe('2026-06-30T23:00:00.000Z');
  });
  it('makes the days of the clock changes 23 and 25 hours long', () => {
    // 29 March 2026: clocks go forward at 01:00 UTC; 25 October 2026: back at 01:00 UTC.
    expect(iso(londonDayStart('2026-03-29'))).toBe('2026-03-29T00:00:00.000Z');
    expect(londonDayStart('2026-03-29', 1) - londonDayStart('2026-03-29')).toBe(23 * 3_600_000);
    expect(iso(londonDayStart('2026-10-25'))).toBe('2026-10-24T23:00:00.000Z');
    expect(londonDayStart('2026-10-25', 1) - londonDayStart('2026-10-25')).toBe(25 * 3_600_000);
  });
  it('adds days across a month and a year end', () => {
    expect(iso(londonDayStart('2026-12-31', 1))).toBe('2027-01-01T00:00:00.000Z');
    expect(iso(londonDayStart('2026-05-31', 1))).toBe('2026-05-31T23:00:00.000Z');
  });
});

describe('counted', () => {
  it('says one of a thing in the singular and any other number in the plural', () => {
    expect(counted(1, 'row')).toBe('1 row');
    expect(counted(0, 'row')).toBe('0 rows');
    expect(counted(2, 'patient')).toBe('2 patients');
    expect(counted(1200, 'letter')).toBe('1200 letters');
    expect(counted(3, 'body', 'bodies')).toBe('3 bodies');
  });
});
