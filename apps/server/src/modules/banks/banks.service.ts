import type { BankListItem, MerchantCountryCode } from '@pos/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { banks } from '../../db/schema';

/** Active banks, by country then name; optionally of one country. */
export async function listBanks(ctx: ServiceCtx, input: { country?: MerchantCountryCode }): Promise<BankListItem[]> {
  const rows = await ctx.app.database.db
    .select({
      id: banks.id,
      name: banks.name,
      country: banks.country,
      routing_number: banks.routingNumber,
      institution_number: banks.institutionNumber,
    })
    .from(banks)
    .where(and(eq(banks.active, true), input.country ? eq(banks.country, input.country) : undefined))
    .orderBy(asc(banks.country), asc(banks.name), asc(banks.id));
  return rows;
}
