import type { CustomerSearchHit, OrderSearchHit, StoreSearchHit, TerminalSearchHit } from '@pos/domain';
import { customerPagePath } from '../../features/customers/lib/url-state';

/*
 * Where a global search result opens (router paths, decision 106): a customer on its page, a store on its
 * customer's page with that store selected, a terminal on the same page at its store's Terminals tab, an order on
 * the order list with its panel open (#/order?id=<order id>, decision 102).
 */

export const customerHitPath = (hit: CustomerSearchHit) => customerPagePath({ customerId: hit.customer_id });

export const storeHitPath = (hit: StoreSearchHit) =>
  customerPagePath({ customerId: hit.customer_id, storeId: hit.store_id });

export const terminalHitPath = (hit: TerminalSearchHit) =>
  customerPagePath({ customerId: hit.customer_id, storeId: hit.store_id, tab: 'terminals' });

export const orderHitPath = (hit: OrderSearchHit) => `/order?id=${hit.order_id}`;
