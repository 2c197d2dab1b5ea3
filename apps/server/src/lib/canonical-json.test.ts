import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('gives equal values the same text whatever their key order, leaving undefined members out', () => {
    const a = { b: [1, { y: 2, x: null }], a: 'text', gone: undefined };
    const b = { a: 'text', b: [1, { x: null, y: 2 }] };
    expect(canonicalJson(a)).toBe('{"a":"text","b":[1,{"x":null,"y":2}]}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(canonicalJson({ a: [2, 1] })).not.toBe(canonicalJson({ a: [1, 2] }));
    expect(canonicalJson(undefined)).toBe('null');
  });
});
