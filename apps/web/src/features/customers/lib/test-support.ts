/*
 * Test data and a signed-in fake server for the customer screens' component tests (not used by the app).
 */
import type { CustomerRecord, CustomerSearchRecord, StoreRecord } from '@pos/domain';
export { signInAs } from '../../../test/factories';

export function makeStore(overrides: Partial<StoreRecord> = {}): StoreRecord {
  const id = overrides.store_id ?? 500002;
  const country = overrides.country ?? 'US';
  return {
    store_id: id,
    customer_id: 100001,
    store_name: `Corner Deli - ${id} Main St`,
    doing_business_as: 'Corner Deli',
    bracct: 'BR-0001',
    sales_rep: 'Jordan Reyes',
    sales_person_id: 1,
    account_manager: 'is',
    phone: '555-010-0000',
    mobile_phone: null,
    kind_of_business: 'Deli',
    address:
      country === 'CA'
        ? { address1: '12 Albert St', address2: null, city: 'Regina', state: 'SK', zip: 'S4P 3Y2', country: 'CA' }
        : { address1: '1 Main St', address2: null, city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
    dba_address: null,
    state: country === 'CA' ? 'SK' : 'TX',
    country,
    currency: country === 'CA' ? 'CAD' : 'USD',
    status: 'active',
    store_type: 'R',
    mid: '800000500002',
    license_expires_on: '2026-12-31',
    active_terminals: 1,
    terminals: 2,
    created_at: '2024-01-02T10:00:00.000Z',
    updated_at: '2024-01-02T10:00:00.000Z',
    version: 3,
    ...overrides,
  };
}

export function makeCustomer(overrides: Partial<CustomerRecord> = {}): CustomerRecord {
  const country = overrides.country ?? 'US';
  return {
    customer_id: 100001,
    legal_name: 'Corner Deli LLC',
    title: null,
    first_name: 'Pat',
    middle_name: null,
    last_name: 'Owner',
    phone: '555-010-1111',
    email: 'owner@cornerdeli.example',
    bracct: 'BR-0001',
    federal_tax_id: '12-3456789',
    ofa_customer_id: null,
    oasis_id: null,
    business_type: 'LLC',
    customer_category: 'DISTRIBUTOR',
    customer_class: 'POS',
    resale_certificate: null,
    country,
    currency: country === 'CA' ? 'CAD' : 'USD',
    status: 'active',
    home_address: null,
    billing_address: null,
    shipping_address: null,
    account_manager: 'is',
    sales_person: { id: 1, name: 'Jordan Reyes', email: 'jordan.reyes.sales@example.com', phone: null },
    mobile_consent: false,
    created_at: '2024-01-01T10:00:00.000Z',
    updated_at: '2024-01-01T10:00:00.000Z',
    version: 5,
    stores: [makeStore({ country })],
    ...overrides,
  };
}

export function makeSearchRecord(overrides: Partial<CustomerSearchRecord> = {}): CustomerSearchRecord {
  return {
    customer_id: 100001,
    legal_name: 'Corner Deli LLC',
    doing_business_as: 'Corner Deli',
    store_id: 500002,
    store_name: 'Corner Deli - 1 Main St',
    bracct: 'BR-0001',
    sales_rep: 'Jordan Reyes',
    federal_tax_id: '12-3456789',
    email: 'owner@cornerdeli.example',
    phone: null,
    country: 'US',
    currency: 'USD',
    city: 'Austin',
    state: 'TX',
    zip: '73301',
    customer_status: 'active',
    store_status: 'active',
    account_manager: 'is',
    ...overrides,
  };
}

export const SALES_PERSON = {
  id: 1,
  name: 'Jordan Reyes',
  email: 'jordan.reyes.sales@example.com',
  phone: null,
  sales_channel: 'IS',
  agent_id: null,
  active: true,
  customers: 12,
};

/** The reads every customer view makes, for customer `c` (notes and audit empty). */
export function customerRoutes(c: CustomerRecord) {
  const id = c.customer_id;
  return {
    [`GET /api/customers/${id}/tok`]: c,
    'GET /api/salesperson/1/tok': SALES_PERSON,
    [`GET /api/customers/${id}/tok/customernotes`]: { items: [], total: 0 },
    [`GET /api/customers/${id}/audit/tok`]: { items: [], total: 0 },
  };
}
