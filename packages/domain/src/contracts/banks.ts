import { z } from 'zod';
import { MERCHANT_COUNTRY_CODES, type MerchantCountryCode } from '../codes/countries';

/*
 * Bank list (spec §3 "Bank list: info.banks", §7 Other):
 *   GET /api/customers/paymentinstruments/list/bank/{token}?country=US|CA → { banks: bank[] }
 * US banks carry an ABA routing number, Canadian banks a 3-digit institution number.
 */

export const bankListQuery = z.object({
  country: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(
      z.enum(MERCHANT_COUNTRY_CODES as [MerchantCountryCode, ...MerchantCountryCode[]], {
        message: 'Choose US or CA.',
      }),
    )
    .optional(),
});
export type BankListQuery = z.infer<typeof bankListQuery>;

export const bankListItem = z.object({
  id: z.number().int(),
  name: z.string(),
  country: z.string(),
  routing_number: z.string().nullable(),
  institution_number: z.string().nullable(),
});
export type BankListItem = z.infer<typeof bankListItem>;

export const bankListInfo = z.object({ banks: z.array(bankListItem) });
export type BankListInfo = z.infer<typeof bankListInfo>;
