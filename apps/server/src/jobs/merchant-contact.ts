import { eq } from 'drizzle-orm';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import { customers, storeEmails, stores } from '../db/schema';
import type { MailPort } from '../integrations/mail/mail.port';
import { paymentUpdateLinkEmail, type RenderedEmail } from '../integrations/mail/templates';
import { issueLinkToken, PAYMENT_UPDATE_LINK_TTL_MS, paymentUpdateLink } from '../lib/link-tokens';

export type StoreEmailKind = 'general' | 'billing' | 'owner' | 'support';

export interface MerchantContact {
  store: typeof stores.$inferSelect;
  customer: typeof customers.$inferSelect;
  /** Where the message goes. */
  email: string;
  /** Who it greets. */
  name: string;
}

/**
 * A store, its customer and the address to write to: the store's e-mails of the preferred kinds in that order
 * (the primary one first within a kind), else the customer's own e-mail. Null when the store does not exist.
 */
export async function merchantContact(
  db: Db,
  storeId: number,
  preferred: readonly StoreEmailKind[],
): Promise<MerchantContact | null> {
  const [row] = await db
    .select({ store: stores, customer: customers })
    .from(stores)
    .innerJoin(customers, eq(customers.id, stores.customerId))
    .where(eq(stores.id, storeId));
  if (!row) return null;
  const emails = await db.select().from(storeEmails).where(eq(storeEmails.storeId, storeId));
  const rank = (e: (typeof emails)[number]) => {
    const k = preferred.indexOf(e.kind as StoreEmailKind);
    return (k === -1 ? preferred.length : k) * 2 + (e.isPrimary ? 0 : 1);
  };
  const best = emails
    .filter((e) => preferred.includes(e.kind as StoreEmailKind))
    .sort((a, b) => rank(a) - rank(b) || a.id - b.id)[0];
  const name = [row.customer.firstName, row.customer.lastName].filter(Boolean).join(' ') || row.customer.legalName;
  return { ...row, email: best?.email ?? row.customer.email, name };
}

/**
 * Issue the store's 'payment_update' link (7 days; it replaces the store's earlier live link) and e-mail it to the
 * contact, on the caller's transaction: the update-payment e-mail, or the message `render` makes around the link.
 * The token itself is only in the message. The caller writes its own audit entry with what this answers.
 */
export async function mailPaymentUpdateLink(
  tx: Db,
  app: { config: Pick<AppConfig, 'publicUrl'>; mail: MailPort },
  contact: MerchantContact,
  now: Date,
  options: {
    createdByStaffId?: number | null;
    render?: (link: { url: string; expiresAt: Date }) => RenderedEmail;
  } = {},
): Promise<{ linkTokenId: number; expiresAt: Date; mailId: number }> {
  const link = await issueLinkToken(tx, {
    purpose: 'payment_update',
    subjectType: 'store',
    subjectId: contact.store.id,
    now,
    ttlMs: PAYMENT_UPDATE_LINK_TTL_MS,
    createdByStaffId: options.createdByStaffId ?? null,
  });
  const url = paymentUpdateLink(app.config.publicUrl, link.token);
  const message = options.render
    ? options.render({ url, expiresAt: link.expiresAt })
    : paymentUpdateLinkEmail({
        recipientName: contact.name,
        storeName: contact.store.doingBusinessAs,
        link: url,
        expiresAt: link.expiresAt,
      });
  const mail = await app.mail.send(
    { to: contact.email, ...message, related: { type: 'store', id: contact.store.id } },
    { db: tx },
  );
  return { linkTokenId: link.id, expiresAt: link.expiresAt, mailId: mail.id };
}
