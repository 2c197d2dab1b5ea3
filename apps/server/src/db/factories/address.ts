import type { MerchantCountryCode } from '@pos/domain';
import type { AddressJson, GeocodedAddressJson } from '../schema';
import type { Rng } from './random';
import { CA_CITIES, STREET_NAMES, STREET_TYPES_CA, STREET_TYPES_US, US_CITIES } from './words';

/** Letters Canada Post uses in positions 3 and 5 of a postal code (never D, F, I, O, Q, U). */
const CA_LETTERS = 'ABCEGHJKLMNPRSTVWXYZ';

/** The last three characters of a Canadian postal code: digit, letter, digit. */
export function canadianLocalDeliveryUnit(rng: Rng): string {
  return `${rng.int(0, 9)}${CA_LETTERS[rng.int(0, CA_LETTERS.length - 1)]}${rng.int(0, 9)}`;
}

/** A valid US (5-digit ZIP, US state) or Canadian (`A1A 1A1`, province) street address. */
export function randomAddress(
  rng: Rng,
  country: MerchantCountryCode,
  overrides: Partial<AddressJson> = {},
): AddressJson {
  const street = `${rng.int(10, 9899)} ${rng.pick(STREET_NAMES)} ${rng.pick(country === 'CA' ? STREET_TYPES_CA : STREET_TYPES_US)}`;
  if (country === 'CA') {
    const c = rng.pick(CA_CITIES);
    return {
      address1: street,
      address2: rng.chance(0.15) ? `Unit ${rng.int(1, 40)}` : null,
      city: c.city,
      state: c.state,
      zip: `${c.fsa} ${canadianLocalDeliveryUnit(rng)}`,
      country: 'CA',
      ...overrides,
    };
  }
  const c = rng.pick(US_CITIES);
  const zip = `${c.zip.slice(0, 3)}${String(Number(c.zip.slice(3)) + rng.int(0, 9)).padStart(2, '0')}`;
  return {
    address1: street,
    address2: rng.chance(0.15) ? `Suite ${rng.int(100, 499)}` : null,
    city: c.city,
    state: c.state,
    zip,
    country: 'US',
    ...overrides,
  };
}

/** A geocoded form of an address (coordinates are made up but stable for the address). */
export function geocode(rng: Rng, a: AddressJson): GeocodedAddressJson {
  const [number, ...rest] = a.address1.split(' ');
  return {
    lattitude: Number((a.country === 'CA' ? 43 + rng.next() * 10 : 26 + rng.next() * 20).toFixed(6)),
    longitude: Number((-(75 + rng.next() * 45)).toFixed(6)),
    placeId: `demo-${rng.digits(12)}`,
    streetNumber: number ?? null,
    streetName: rest.join(' '),
    city: a.city,
    county: null,
    state: a.state,
    zip: a.zip,
    zip4: a.country === 'US' ? rng.digits(4) : null,
    country: a.country,
    singleLine: `${a.address1}, ${a.city}, ${a.state} ${a.zip}, ${a.country}`,
  };
}

export function phoneNumber(rng: Rng): string {
  return `${rng.int(201, 989)}-555-${rng.digits(4)}`;
}
