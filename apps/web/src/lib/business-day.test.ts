import { describe, expect, it } from 'vitest';
import { businessToday, noteBusinessDay } from './business-day';
import { todayIso } from './format';

describe('the business day (issue 30)', () => {
  it('before the server said anything: the provider’s day, not UTC’s (21:30 in New York is still that day)', () => {
    expect(businessToday(new Date('2026-11-28T02:30:00Z'))).toBe('2026-11-27');
  });

  it('once an answer said it: the server’s day, whatever the browser’s clock says (a form proposes that)', () => {
    noteBusinessDay(new Headers({ 'x-business-date': '2026-03-04' }));
    expect(todayIso()).toBe('2026-03-04');
    noteBusinessDay(new Headers({ 'x-business-date': 'tomorrow' }));
    expect(todayIso()).toBe('2026-03-04');
  });
});
