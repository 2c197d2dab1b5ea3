/** Word lists the factories and the demo seed combine into readable names. */

export const FIRST_NAMES = [
  'James', 'Maria', 'Robert', 'Linda', 'Michael', 'Patricia', 'David', 'Jennifer', 'Daniel', 'Elizabeth',
  'Ahmed', 'Fatima', 'Raj', 'Priya', 'Wei', 'Mei', 'Carlos', 'Sofia', 'Jose', 'Ana', 'Nguyen', 'Linh',
  'Kwame', 'Amara', 'Hassan', 'Leila', 'Samuel', 'Grace', 'Thomas', 'Olivia', 'Omar', 'Nadia', 'Vikram',
  'Anita', 'Luis', 'Carmen', 'Peter', 'Susan', 'Ibrahim', 'Zara', 'Kevin', 'Rachel', 'Marc', 'Chantal',
  'Jean', 'Sophie', 'Tariq', 'Hana', 'George', 'Helen',
] as const;

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Patel', 'Nguyen', 'Garcia', 'Kim', 'Rodriguez', 'Singh', 'Chen', 'Martinez', 'Ali',
  'Khan', 'Lopez', 'Brown', 'Williams', 'Shah', 'Tran', 'Hernandez', 'Lee', 'Wilson', 'Anderson', 'Thomas',
  'Moore', 'Jackson', 'Martin', 'Tremblay', 'Gagnon', 'Roy', 'Cote', 'Bouchard', 'Okafor', 'Mensah',
  'Haddad', 'Yilmaz', 'Kowalski', 'Novak', 'Rossi', 'Silva', 'Santos', 'Wong', 'Park', 'Desai', 'Mehta',
  'Rahman', 'Hussain', 'Murphy', 'Kelly', 'Clarke', 'Walker', 'Young',
] as const;

export const MIDDLE_INITIALS = ['A', 'B', 'C', 'D', 'E', 'J', 'K', 'L', 'M', 'R', 'S', 'T'] as const;

/** First word of a store name. */
export const STORE_PREFIXES = [
  'Sunrise', 'Main Street', 'Lucky', 'Golden', 'Corner', 'Family', 'Express', 'Quick Stop', 'City', 'Village',
  'Sunset', 'Green Valley', 'Liberty', 'Eagle', 'Star', 'Royal', 'Happy', 'Pioneer', 'Hometown', 'Lakeside',
  'Hilltop', 'Riverside', 'Maple', 'Oak Tree', 'Pine', 'Harbor', 'Metro', 'Prime', 'Friendly', 'Crossroads',
  'Northside', 'Southside', 'Westgate', 'Eastview', 'Fresh', 'Super', 'Discount', 'Best Buy', 'Daily', 'Urban',
] as const;

/** Kinds of business with the store-name words that fit them. */
export const KINDS_OF_BUSINESS = [
  { kind: 'Convenience store', words: ['Food Mart', 'Mini Mart', 'Convenience', 'Market', 'Quik Shop'], weight: 30 },
  { kind: 'Grocery', words: ['Grocery', 'Supermarket', 'Foods', 'Fresh Market'], weight: 14 },
  { kind: 'Liquor store', words: ['Liquor', 'Wine & Spirits', 'Beverage', 'Liquor Mart'], weight: 12 },
  { kind: 'Gas station', words: ['Gas & Go', 'Fuel Stop', 'Petro', 'Gas Mart'], weight: 10 },
  { kind: 'Tobacco shop', words: ['Smoke Shop', 'Tobacco', 'Vape & Smoke', 'Cigar Shop'], weight: 9 },
  { kind: 'Restaurant', words: ['Grill', 'Diner', 'Kitchen', 'Pizza', 'Cafe'], weight: 8 },
  { kind: 'Deli', words: ['Deli', 'Bagels & Deli', 'Sandwich Shop'], weight: 5 },
  { kind: 'Pharmacy', words: ['Pharmacy', 'Drugs', 'Health Mart'], weight: 4 },
  { kind: 'Hardware store', words: ['Hardware', 'Home & Garden', 'Supply'], weight: 3 },
  { kind: 'Dollar store', words: ['Dollar Plus', 'Dollar Store', '99 Cents'], weight: 3 },
  { kind: 'Meat market', words: ['Meat Market', 'Butcher', 'Carniceria'], weight: 2 },
] as const;

export const LEGAL_SUFFIXES_US = ['LLC', 'Inc', 'Corp', 'LLC', 'Enterprises LLC', 'Holdings Inc'] as const;
export const LEGAL_SUFFIXES_CA = ['Ltd.', 'Inc.', 'Corp.', 'Enterprises Ltd.'] as const;

export const STREET_NAMES = [
  'Main', 'Elm', 'Oak', 'Maple', 'Washington', 'Lake', 'Hill', 'Park', 'Pine', 'Cedar', 'Church', 'Market',
  'Broadway', 'Center', 'High', 'Union', 'Franklin', 'King', 'Queen', 'Victoria', 'Jefferson', 'Lincoln',
  'Highland', 'River', 'Spring', 'Mill', 'Sunset', 'Jackson', 'Water', 'Front',
] as const;
export const STREET_TYPES_US = ['St', 'Ave', 'Blvd', 'Rd', 'Dr', 'Hwy', 'Pkwy'] as const;
export const STREET_TYPES_CA = ['St', 'Ave', 'Rd', 'Blvd', 'Dr', 'Cres'] as const;

/** US cities with their state and a ZIP code of the city (the last two digits vary). */
export const US_CITIES = [
  { city: 'Houston', state: 'TX', zip: '77002' },
  { city: 'Dallas', state: 'TX', zip: '75201' },
  { city: 'San Antonio', state: 'TX', zip: '78205' },
  { city: 'Austin', state: 'TX', zip: '78701' },
  { city: 'Los Angeles', state: 'CA', zip: '90012' },
  { city: 'San Diego', state: 'CA', zip: '92101' },
  { city: 'Fresno', state: 'CA', zip: '93721' },
  { city: 'New York', state: 'NY', zip: '10001' },
  { city: 'Buffalo', state: 'NY', zip: '14202' },
  { city: 'Miami', state: 'FL', zip: '33130' },
  { city: 'Orlando', state: 'FL', zip: '32801' },
  { city: 'Tampa', state: 'FL', zip: '33602' },
  { city: 'Atlanta', state: 'GA', zip: '30303' },
  { city: 'Savannah', state: 'GA', zip: '31401' },
  { city: 'Chicago', state: 'IL', zip: '60602' },
  { city: 'Springfield', state: 'IL', zip: '62701' },
  { city: 'Detroit', state: 'MI', zip: '48226' },
  { city: 'Grand Rapids', state: 'MI', zip: '49503' },
  { city: 'Columbus', state: 'OH', zip: '43215' },
  { city: 'Cleveland', state: 'OH', zip: '44113' },
  { city: 'Philadelphia', state: 'PA', zip: '19107' },
  { city: 'Pittsburgh', state: 'PA', zip: '15222' },
  { city: 'Charlotte', state: 'NC', zip: '28202' },
  { city: 'Raleigh', state: 'NC', zip: '27601' },
  { city: 'Phoenix', state: 'AZ', zip: '85004' },
  { city: 'Tucson', state: 'AZ', zip: '85701' },
  { city: 'Newark', state: 'NJ', zip: '07102' },
  { city: 'Jersey City', state: 'NJ', zip: '07302' },
  { city: 'Nashville', state: 'TN', zip: '37203' },
  { city: 'Memphis', state: 'TN', zip: '38103' },
  { city: 'Indianapolis', state: 'IN', zip: '46204' },
  { city: 'Seattle', state: 'WA', zip: '98101' },
  { city: 'Denver', state: 'CO', zip: '80202' },
  { city: 'Baltimore', state: 'MD', zip: '21201' },
  { city: 'Boston', state: 'MA', zip: '02108' },
  { city: 'Las Vegas', state: 'NV', zip: '89101' },
  { city: 'Louisville', state: 'KY', zip: '40202' },
  { city: 'New Orleans', state: 'LA', zip: '70112' },
  { city: 'Birmingham', state: 'AL', zip: '35203' },
  { city: 'Oklahoma City', state: 'OK', zip: '73102' },
  { city: 'Richmond', state: 'VA', zip: '23219' },
  { city: 'Milwaukee', state: 'WI', zip: '53202' },
  { city: 'Minneapolis', state: 'MN', zip: '55401' },
  { city: 'St. Louis', state: 'MO', zip: '63101' },
  { city: 'Portland', state: 'OR', zip: '97204' },
  { city: 'Albuquerque', state: 'NM', zip: '87102' },
  { city: 'Salt Lake City', state: 'UT', zip: '84101' },
  { city: 'Washington', state: 'DC', zip: '20001' },
  { city: 'San Juan', state: 'PR', zip: '00901' },
  { city: 'Charleston', state: 'SC', zip: '29401' },
] as const;

/**
 * Canadian cities with their province and the forward sortation area (first three characters of the postal
 * code) of their centre; the last three characters are generated with Canada Post's letters.
 */
export const CA_CITIES = [
  { city: 'Toronto', state: 'ON', fsa: 'M5V' },
  { city: 'Mississauga', state: 'ON', fsa: 'L5B' },
  { city: 'Ottawa', state: 'ON', fsa: 'K1P' },
  { city: 'Hamilton', state: 'ON', fsa: 'L8P' },
  { city: 'London', state: 'ON', fsa: 'N6A' },
  { city: 'Brampton', state: 'ON', fsa: 'L6V' },
  { city: 'Montreal', state: 'QC', fsa: 'H2X' },
  { city: 'Quebec City', state: 'QC', fsa: 'G1R' },
  { city: 'Laval', state: 'QC', fsa: 'H7N' },
  { city: 'Vancouver', state: 'BC', fsa: 'V6B' },
  { city: 'Surrey', state: 'BC', fsa: 'V3T' },
  { city: 'Victoria', state: 'BC', fsa: 'V8W' },
  { city: 'Calgary', state: 'AB', fsa: 'T2P' },
  { city: 'Edmonton', state: 'AB', fsa: 'T5J' },
  { city: 'Winnipeg', state: 'MB', fsa: 'R3C' },
  { city: 'Regina', state: 'SK', fsa: 'S4P' },
  { city: 'Saskatoon', state: 'SK', fsa: 'S7K' },
  { city: 'Halifax', state: 'NS', fsa: 'B3J' },
  { city: 'Moncton', state: 'NB', fsa: 'E1C' },
  { city: "St. John's", state: 'NL', fsa: 'A1C' },
  { city: 'Charlottetown', state: 'PE', fsa: 'C1A' },
  { city: 'Whitehorse', state: 'YT', fsa: 'Y1A' },
  { city: 'Yellowknife', state: 'NT', fsa: 'X1A' },
  { city: 'Iqaluit', state: 'NU', fsa: 'X0A' },
] as const;

export const BUSINESS_TYPES = ['LLC', 'Corporation', 'Sole Proprietorship', 'Partnership', 'S Corporation'] as const;
export const CURRENT_POS = ['None', 'Cash register', 'Square', 'Clover', 'Verifone', 'Other POS'] as const;
export const INTERNET_TYPES = ['Cable', 'DSL', 'Fiber', '4G/LTE', 'Satellite'] as const;
export const CARD_PROCESSORS = ['Fiserv', 'Worldpay', 'TSYS', 'Global Payments', 'Elavon', 'Chase'] as const;
