import { describe, expect, it } from 'vitest';
import { calendarDayIn, formatDisplayDate, isIsoDay } from './business-day';

describe('the business day (issue 30)', () => {
  it('is the day in the provider’s zone, not UTC’s: 01:30 UTC is still the evening before in New York', () => {
    const at = new Date('2026-11-28T01:30:00Z');
    expect(calendarDayIn(at, 'America/New_York')).toBe('2026-11-27');
    expect(calendarDayIn(at, 'UTC')).toBe('2026-11-28');
    expect(calendarDayIn(new Date('2026-07-01T06:59:00Z'), 'America/Los_Angeles')).toBe('2026-06-30');
  });

  it('knows a server day from anything else', () => {
    expect(isIsoDay('2026-11-27')).toBe(true);
    expect(isIsoDay('11/27/2026')).toBe(false);
    expect(isIsoDay(null)).toBe(false);
  });

  it('writes a day one way for people: Nov 27, 2026', () => {
    expect(formatDisplayDate('2026-11-27')).toBe('Nov 27, 2026');
    expect(formatDisplayDate(new Date('2026-12-04T23:30:00Z'))).toBe('Dec 4, 2026');
    expect(formatDisplayDate('soon')).toBe('soon');
  });
});
