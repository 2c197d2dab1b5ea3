import {
  documentCustomerId,
  orderDocumentReferences,
  type OrderDocument,
  type OrderDocumentWithReferences,
} from '@pos/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { agentScopeOfViewer, isCustomerVisible, isStoreVisible, type Viewer } from '../../access';
import type { Db } from '../../db/client';
import { paymentInstruments, stores } from '../../db/schema';
import { AppError } from '../../http/errors';

/*
 * Issue 27 item 2, decision 142: the records an order document names (domain access/order-document-refs.ts) are
 * checked against the owner rules (decision 140) on every save and submit of an agent-scoped session — another agent's
 * customer or store, a store of another customer, a card or bank account the order was never given → 400
 * validation_failed naming the document path (`json.additionalInfo.customerID`), and nothing is written. A customer
 * or store the session may not see is answered exactly like a missing one. Unscoped staff see every merchant record:
 * their documents are not checked (today's behaviour).
 */

/** What the save itself put into the document: cards it redeemed from tokens, bank numbers it sealed. */
export interface MadeBySave {
  readonly cards: ReadonlySet<string>;
  readonly bankAccounts: ReadonlySet<string>;
}

const referencesOf = (doc: Record<string, unknown> | null) =>
  doc ? orderDocumentReferences(doc as OrderDocumentWithReferences) : [];

/**
 * The fields of `doc` that name a record the viewer may not name (path → message); empty when every reference is
 * fine or the viewer sees every merchant record. `before` is the order's stored document (null for a new order): a
 * card or bank account it already holds was put there by an earlier save or by the merchant's re-authorization.
 */
export async function foreignReferences(
  db: Db,
  viewer: Viewer,
  doc: OrderDocument,
  before: Record<string, unknown> | null,
  made: MadeBySave,
): Promise<Record<string, string>> {
  if (agentScopeOfViewer(viewer).kind === 'all') return {};
  const refs = referencesOf(doc as Record<string, unknown>);
  if (refs.length === 0) return {};
  const fields: Record<string, string> = {};
  const customerId = documentCustomerId(doc);

  const visibleCustomers = new Map<number, boolean>();
  const customerVisible = async (id: number) => {
    if (!visibleCustomers.has(id)) visibleCustomers.set(id, await isCustomerVisible(db, viewer, id));
    return visibleCustomers.get(id)!;
  };
  const orderCustomerOk = customerId !== null && (await customerVisible(customerId));

  const held = referencesOf(before);
  const heldCards = new Set(held.flatMap((r) => (r.kind === 'card' ? [r.reference] : [])));
  const heldBanks = new Set(held.flatMap((r) => (r.kind === 'bank_account' ? [r.sealed] : [])));
  const cards = refs.flatMap((r) => (r.kind === 'card' ? [r.reference] : []));
  // A card on file of the order's own customer may be named (the customer is one the session may see).
  const customersCards =
    orderCustomerOk && cards.length > 0
      ? new Set(
          (
            await db
              .select({ reference: paymentInstruments.processorReference })
              .from(paymentInstruments)
              .where(
                and(
                  eq(paymentInstruments.customerId, customerId),
                  eq(paymentInstruments.kind, 'card'),
                  eq(paymentInstruments.status, 'active'),
                  inArray(paymentInstruments.processorReference, cards),
                ),
              )
          ).map((r) => r.reference),
        )
      : new Set<string | null>();

  for (const ref of refs) {
    switch (ref.kind) {
      case 'customer':
        if (!(await customerVisible(ref.id))) fields[ref.path] = `Customer ${ref.id} was not found.`;
        break;
      case 'store': {
        if (!(await isStoreVisible(db, viewer, ref.id))) {
          fields[ref.path] = `Store ${ref.id} was not found.`;
          break;
        }
        const [store] = await db.select({ customerId: stores.customerId }).from(stores).where(eq(stores.id, ref.id));
        if (customerId === null)
          fields[ref.path] =
            `Store ${ref.id} is not a store of the order's customer: name its customer in additionalInfo.customerID.`;
        else if (store?.customerId !== customerId)
          fields[ref.path] = `Store ${ref.id} is not a store of customer ${customerId}.`;
        break;
      }
      case 'card':
        if (!made.cards.has(ref.reference) && !heldCards.has(ref.reference) && !customersCards.has(ref.reference))
          fields[ref.path] =
            "This card was not entered on this order and is not one of its customer's: enter the card again.";
        break;
      case 'bank_account':
        if (!made.bankAccounts.has(ref.sealed) && !heldBanks.has(ref.sealed))
          fields[ref.path] = 'This bank account was not entered on this order: enter the account number again.';
        break;
    }
  }
  return fields;
}

/** 400 validation_failed for the fields above (the first one in the message, like the document's other checks). */
export function foreignReferencesError(fields: Record<string, string>): AppError {
  const [path, message] = Object.entries(fields)[0]!;
  return new AppError('validation_failed', `Please correct the order (${path}: ${message})`, fields);
}
