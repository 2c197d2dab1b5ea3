import { describe, expect, it } from 'vitest';
import { checkMidFormat, MID_FORMAT_MESSAGE, normalizeMid } from './mid';

describe('MID format (decision 030)', () => {
  it('accepts 12 to 16 digits, ignoring spaces and dashes', () => {
    expect(checkMidFormat('8000 0000-1234')).toEqual({ ok: true, mid: '800000001234' });
    expect(checkMidFormat('1234567890123456')).toEqual({ ok: true, mid: '1234567890123456' });
    expect(normalizeMid(' 12-34 ')).toBe('1234');
  });
  it('refuses blanks, wrong lengths, letters and all zeros with a message', () => {
    expect(checkMidFormat('  ')).toEqual({ ok: false, reason: 'Enter the MID.' });
    expect(checkMidFormat('12345678901')).toEqual({ ok: false, reason: MID_FORMAT_MESSAGE });
    expect(checkMidFormat('12345678901234567')).toEqual({ ok: false, reason: MID_FORMAT_MESSAGE });
    expect(checkMidFormat('1234567890AB')).toEqual({ ok: false, reason: MID_FORMAT_MESSAGE });
    expect(checkMidFormat('0000 0000 0000')).toEqual({ ok: false, reason: 'A MID cannot be all zeros.' });
  });
});
