import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { customerPaymentPlans, invoices, orders, paymentInstruments } from '../db/schema';
import { AppError } from '../http/errors';
import { isOrderVisible } from './orders';
import { isRecordVisible, visibleStoresWhere } from './stores';
import type { Viewer } from './viewer';

/*
 * Records hung under a merchant (domain record-scope.ts; decision 140): a list's filter and the loaders of the ids a
 * call names beside its customer — a plan, an invoice, an order, a payment instrument "of customer N". Another
 * customer's record, or one the viewer may not see, is 404 naming the field it came from, like a missing one.
 */

/**
 * The condition that keeps the records of a customer list the viewer may see: those of a store it sees, and those of
 * the customer alone (the customer itself was checked by requireCustomer). Undefined when it sees all.
 */
export function visibleRecordsWhere(viewer: Viewer, storeId: AnyPgColumn | SQL): SQL | undefined {
  const stores = visibleStoresWhere(viewer, storeId);
  return stores === undefined ? undefined : sql`(${storeId} is null or ${stores})`;
}

function notOf(kind: string, id: number, customerId: number, field: string): AppError {
  const message = `${kind} ${id} is not a ${kind.toLowerCase()} of customer ${customerId}.`;
  return new AppError('not_found', message, { [field]: message });
}

/** A plan of this customer the viewer may see, or 404 naming `field`. */
export async function requirePlanOf(db: Db, viewer: Viewer, customerId: number, planId: number, field: string) {
  const [row] = await db
    .select({
      id: customerPaymentPlans.id,
      customerId: customerPaymentPlans.customerId,
      storeId: customerPaymentPlans.storeId,
    })
    .from(customerPaymentPlans)
    .where(and(eq(customerPaymentPlans.id, planId), eq(customerPaymentPlans.customerId, customerId)));
  if (!row || !(await isRecordVisible(db, viewer, row))) throw notOf('Plan', planId, customerId, field);
  return row;
}

/** An invoice of this customer the viewer may see, or 404 naming `field`. */
export async function requireInvoiceOf(db: Db, viewer: Viewer, customerId: number, invoiceId: number, field: string) {
  const [row] = await db
    .select({ id: invoices.id, customerId: invoices.customerId, storeId: invoices.storeId })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.customerId, customerId)));
  if (!row || !(await isRecordVisible(db, viewer, row))) throw notOf('Invoice', invoiceId, customerId, field);
  return row;
}

/** A payment instrument of this customer the viewer may see, or 404 naming `field`. */
export async function requireInstrumentOf(
  db: Db,
  viewer: Viewer,
  customerId: number,
  instrumentId: number,
  field: string,
) {
  const [row] = await db
    .select({
      id: paymentInstruments.id,
      customerId: paymentInstruments.customerId,
      storeId: paymentInstruments.storeId,
    })
    .from(paymentInstruments)
    .where(and(eq(paymentInstruments.id, instrumentId), eq(paymentInstruments.customerId, customerId)));
  if (!row || !(await isRecordVisible(db, viewer, row)))
    throw notOf('Payment instrument', instrumentId, customerId, field);
  return row;
}

/** An order of this customer the viewer may see (the order rule), or 404 naming `field`. */
export async function requireOrderOf(db: Db, viewer: Viewer, customerId: number, orderId: number, field: string) {
  const [row] = await db
    .select({ id: orders.id, agentId: orders.agentId, customerId: orders.customerId, storeId: orders.storeId })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.customerId, customerId)));
  if (!row || !(await isOrderVisible(db, viewer, row))) throw notOf('Order', orderId, customerId, field);
  return row;
}
