import { describe, expect, it } from 'vitest';
import { addressDraft, addressFieldsFromServer, checkAddress, typeZip } from './address';

describe('address form rules', () => {
  it('the ZIP box masks what fits the country', () => {
    expect(typeZip('CA', 's0s0s0')).toBe('S0S 0S0');
    expect(typeZip('CA', 'S0S 0')).toBe('S0S 0');
    expect(typeZip('US', '12345')).toBe('12345');
  });

  it('…and leaves what does not fit as typed, so the check can say why', () => {
    expect(typeZip('CA', '12345')).toBe('12345');
    expect(typeZip('US', 'K1A 0B1')).toBe('K1A 0B1');
  });

  it('a Canadian address takes S0S 0S0 and a province; a US ZIP is refused with a field message', () => {
    const draft = { ...addressDraft(null, 'CA'), address1: '1 Main St', city: 'Regina', state: 'SK', zip: 'S0S 0S0' };
    const ok = checkAddress(draft);
    expect(ok.ok && ok.address.zip).toBe('S0S 0S0');
    const bad = checkAddress({ ...draft, zip: '12345' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.fields.zip).toBe('Canadian postal code must look like A1A 1A1.');
  });

  it('a US state is refused on a Canadian address', () => {
    const bad = checkAddress({
      ...addressDraft(null, 'CA'),
      address1: '1 Main St',
      city: 'Regina',
      state: 'TX',
      zip: 'S0S 0S0',
    });
    expect(!bad.ok && bad.fields.state).toMatch(/Canadian province/);
  });

  it('server field paths map onto the form', () => {
    expect(addressFieldsFromServer({ 'address.zip': 'Bad zip', version: 'x', city: 'Required' })).toEqual({
      zip: 'Bad zip',
      city: 'Required',
    });
  });
});
