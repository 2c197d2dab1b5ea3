import type { MerchantCountryCode } from './countries';

export interface StateOption {
  readonly code: string;
  readonly name: string;
}

/**
 * 57 US entries (spec §3): the 50 states, DC, the five inhabited territories (American Samoa, Guam,
 * Northern Mariana Islands, Puerto Rico, Virgin Islands) and — to reach the spec's 57 — the Marshall
 * Islands (MH), a freely associated state served by USPS ZIP codes and using the US dollar.
 * Federated States of Micronesia (FM), Palau (PW) and the Armed Forces codes (AA/AE/AP) are not listed.
 */
export const US_STATES: readonly StateOption[] = [
  { code: 'AL', name: 'Alabama' },
  { code: 'AK', name: 'Alaska' },
  { code: 'AS', name: 'American Samoa' },
  { code: 'AZ', name: 'Arizona' },
  { code: 'AR', name: 'Arkansas' },
  { code: 'CA', name: 'California' },
  { code: 'CO', name: 'Colorado' },
  { code: 'CT', name: 'Connecticut' },
  { code: 'DE', name: 'Delaware' },
  { code: 'DC', name: 'District of Columbia' },
  { code: 'FL', name: 'Florida' },
  { code: 'GA', name: 'Georgia' },
  { code: 'GU', name: 'Guam' },
  { code: 'HI', name: 'Hawaii' },
  { code: 'ID', name: 'Idaho' },
  { code: 'IL', name: 'Illinois' },
  { code: 'IN', name: 'Indiana' },
  { code: 'IA', name: 'Iowa' },
  { code: 'KS', name: 'Kansas' },
  { code: 'KY', name: 'Kentucky' },
  { code: 'LA', name: 'Louisiana' },
  { code: 'ME', name: 'Maine' },
  { code: 'MH', name: 'Marshall Islands' },
  { code: 'MD', name: 'Maryland' },
  { code: 'MA', name: 'Massachusetts' },
  { code: 'MI', name: 'Michigan' },
  { code: 'MN', name: 'Minnesota' },
  { code: 'MS', name: 'Mississippi' },
  { code: 'MO', name: 'Missouri' },
  { code: 'MT', name: 'Montana' },
  { code: 'NE', name: 'Nebraska' },
  { code: 'NV', name: 'Nevada' },
  { code: 'NH', name: 'New Hampshire' },
  { code: 'NJ', name: 'New Jersey' },
  { code: 'NM', name: 'New Mexico' },
  { code: 'NY', name: 'New York' },
  { code: 'NC', name: 'North Carolina' },
  { code: 'ND', name: 'North Dakota' },
  { code: 'MP', name: 'Northern Mariana Islands' },
  { code: 'OH', name: 'Ohio' },
  { code: 'OK', name: 'Oklahoma' },
  { code: 'OR', name: 'Oregon' },
  { code: 'PA', name: 'Pennsylvania' },
  { code: 'PR', name: 'Puerto Rico' },
  { code: 'RI', name: 'Rhode Island' },
  { code: 'SC', name: 'South Carolina' },
  { code: 'SD', name: 'South Dakota' },
  { code: 'TN', name: 'Tennessee' },
  { code: 'TX', name: 'Texas' },
  { code: 'UT', name: 'Utah' },
  { code: 'VT', name: 'Vermont' },
  { code: 'VI', name: 'Virgin Islands' },
  { code: 'VA', name: 'Virginia' },
  { code: 'WA', name: 'Washington' },
  { code: 'WV', name: 'West Virginia' },
  { code: 'WI', name: 'Wisconsin' },
  { code: 'WY', name: 'Wyoming' },
];

/** The 13 Canadian provinces and territories (spec §3), Canada Post two-letter codes. */
export const CA_PROVINCES: readonly StateOption[] = [
  { code: 'AB', name: 'Alberta' },
  { code: 'BC', name: 'British Columbia' },
  { code: 'MB', name: 'Manitoba' },
  { code: 'NB', name: 'New Brunswick' },
  { code: 'NL', name: 'Newfoundland and Labrador' },
  { code: 'NT', name: 'Northwest Territories' },
  { code: 'NS', name: 'Nova Scotia' },
  { code: 'NU', name: 'Nunavut' },
  { code: 'ON', name: 'Ontario' },
  { code: 'PE', name: 'Prince Edward Island' },
  { code: 'QC', name: 'Quebec' },
  { code: 'SK', name: 'Saskatchewan' },
  { code: 'YT', name: 'Yukon' },
];

const STATES_BY_COUNTRY: Readonly<Record<MerchantCountryCode, readonly StateOption[]>> = {
  US: US_STATES,
  CA: CA_PROVINCES,
};

/** Every US state / territory and Canadian province / territory code (a filter on several of them). */
export const ALL_STATE_CODES: readonly string[] = [...US_STATES, ...CA_PROVINCES].map((s) => s.code);

/** The state/province list of a country; empty for countries without a list. */
export function statesFor(country: string): readonly StateOption[] {
  return Object.prototype.hasOwnProperty.call(STATES_BY_COUNTRY, country)
    ? STATES_BY_COUNTRY[country as MerchantCountryCode]
    : [];
}

/** True when `code` is a state of `country`. Countries without a list accept any code. */
export function isStateOf(country: string, code: string): boolean {
  const list = statesFor(country);
  return list.length === 0 || list.some((s) => s.code === code);
}

export function stateName(country: string, code: string): string | undefined {
  return statesFor(country).find((s) => s.code === code)?.name;
}
