import { describe, expect, it } from 'vitest';
import { assertNever } from './assert-never';

describe('assertNever', () => {
  it('throws with the unexpected value in the message', () => {
    expect(() => assertNever('X' as never)).toThrow('Unhandled value: "X"');
  });

  it('uses a custom message when given', () => {
    expect(() => assertNever(42 as never, 'unknown order type 42')).toThrow('unknown order type 42');
  });

  it('makes a switch exhaustive', () => {
    type Shape = 'a' | 'b';
    const area = (s: Shape): number => {
      switch (s) {
        case 'a':
          return 1;
        case 'b':
          return 2;
        default:
          return assertNever(s);
      }
    };
    expect(area('b')).toBe(2);
    expect(() => area('c' as Shape)).toThrow('Unhandled value: "c"');
  });
});
