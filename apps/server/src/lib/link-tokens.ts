import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { linkTokens, type LINK_TOKEN_PURPOSES } from '../db/schema';
import { hashToken, newToken } from './tokens';

/** A payment-update link works for 7 days. */
export const PAYMENT_UPDATE_LINK_TTL_MS = 7 * 24 * 3600_000;

/** A feature-change link works for 14 days (decision 123). */
export const FEATURE_CHANGE_LINK_TTL_MS = 14 * 24 * 3600_000;

/** The merchant's page of a feature change staff prepared: accept or decline it (purpose 'features'). */
export function featureChangeLink(publicUrl: string, token: string): string {
  return `${publicUrl}/#/customer/features/${token}`;
}

/** The merchant's page for a payment-update link: what is owed, pay it, or give another card (public web page). */
export function paymentUpdateLink(publicUrl: string, token: string): string {
  return `${publicUrl}/#/customer/payment/${token}`;
}

/** The merchant's page that only adds or replaces the payment method (purpose 'payment_instrument'). */
export function paymentInstrumentLink(publicUrl: string, token: string): string {
  return `${publicUrl}/#/customer/payment/instrument/${token}`;
}

export type LinkTokenPurpose = (typeof LINK_TOKEN_PURPOSES)[number];

export interface IssueLinkTokenInput {
  purpose: LinkTokenPurpose;
  subjectType: string;
  subjectId: string | number;
  now: Date;
  ttlMs: number;
  createdByStaffId?: number | null;
}

/**
 * A new single-purpose link token (256-bit, only its SHA-256 stored) that expires after `ttlMs`. Earlier live
 * tokens of the same purpose and subject are revoked, so only the newest link works.
 * Returns the token itself (for the link; never stored or logged) and its row.
 */
export async function issueLinkToken(
  tx: Db,
  input: IssueLinkTokenInput,
): Promise<{ token: string; id: number; expiresAt: Date }> {
  const subjectId = String(input.subjectId);
  await tx
    .update(linkTokens)
    .set({ revokedAt: input.now })
    .where(
      and(
        eq(linkTokens.purpose, input.purpose),
        eq(linkTokens.subjectType, input.subjectType),
        eq(linkTokens.subjectId, subjectId),
        isNull(linkTokens.usedAt),
        isNull(linkTokens.revokedAt),
      ),
    );
  const token = newToken();
  const expiresAt = new Date(input.now.getTime() + input.ttlMs);
  const [row] = await tx
    .insert(linkTokens)
    .values({
      tokenHash: hashToken(token),
      purpose: input.purpose,
      subjectType: input.subjectType,
      subjectId,
      createdByStaffId: input.createdByStaffId ?? null,
      createdAt: input.now,
      expiresAt,
    })
    .returning({ id: linkTokens.id });
  return { token, id: row!.id, expiresAt };
}

export type LinkTokenRow = typeof linkTokens.$inferSelect;

/**
 * A link token as the merchant's page finds it: `unknown` (never issued for this purpose and subject type — the
 * caller answers 404), `used`, `expired` (expired or revoked: replaced by a newer link) or `live`. Only the token's
 * SHA-256 is compared. The caller turns the state into its answer (404 / 410).
 */
export async function findLinkToken(
  db: Db,
  input: { token: string; purpose: LinkTokenPurpose; subjectType: string; now: Date },
): Promise<{ state: 'unknown' } | { state: 'used' | 'expired' | 'live'; link: LinkTokenRow }> {
  const [link] = await db
    .select()
    .from(linkTokens)
    .where(
      and(
        eq(linkTokens.tokenHash, hashToken(input.token)),
        eq(linkTokens.purpose, input.purpose),
        eq(linkTokens.subjectType, input.subjectType),
      ),
    )
    .limit(1);
  if (!link) return { state: 'unknown' };
  if (link.usedAt !== null) return { state: 'used', link };
  if (link.revokedAt !== null || link.expiresAt.getTime() <= input.now.getTime()) return { state: 'expired', link };
  return { state: 'live', link };
}

/** Use a link up (single use): false when it was used meanwhile (a concurrent request won). */
export async function useLinkToken(tx: Db, linkId: number, now: Date): Promise<boolean> {
  const used = await tx
    .update(linkTokens)
    .set({ usedAt: now })
    .where(and(eq(linkTokens.id, linkId), isNull(linkTokens.usedAt)))
    .returning({ id: linkTokens.id });
  return used.length > 0;
}

/** Revoke the given links that are still unused (their pages then answer 410). */
export async function revokeLinkTokens(tx: Db, linkIds: readonly number[], now: Date): Promise<void> {
  if (linkIds.length === 0) return;
  await tx
    .update(linkTokens)
    .set({ revokedAt: now })
    .where(and(inArray(linkTokens.id, [...linkIds]), isNull(linkTokens.usedAt), isNull(linkTokens.revokedAt)));
}
