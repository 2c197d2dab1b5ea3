import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { linkTokens, type LINK_TOKEN_PURPOSES } from '../db/schema';
import { hashToken, newToken } from './tokens';

/** A payment-update link works for 7 days. */
export const PAYMENT_UPDATE_LINK_TTL_MS = 7 * 24 * 3600_000;

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
