/*
 * Test data and a signed-in fake server for the customer screens' component tests (not used by the app).
 */
import type { CustomerRecord, CustomerSearchRecord } from '@pos/domain';
export { makeCustomer, makeStore, signInAs } from '../../../test/factories';

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
