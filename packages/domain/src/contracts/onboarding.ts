import { z } from 'zod';
import { tokenParams } from './customers';

/*
 * Onboarding of a Complete order (issue 7, decision 083): what it made. The move to Complete onboards the order in its
 * own transaction; POST /api/customers/orderinfo/{orderId}/onboard/{token} (Admin) runs it again safely — a second run
 * changes nothing and answers the same records with created: false.
 */
export const orderOnboarding = z.object({
  order_id: z.number().int(),
  customer_id: z.number().int(),
  store_id: z.number().int(),
  /** The terminals made for the order (status pending until installed). */
  elmer_ids: z.array(z.string()),
  plan_ids: z.array(z.number().int()),
  onboarded_at: z.string(),
  /** True when this call made the records, false when they existed already. */
  created: z.boolean(),
});
export type OrderOnboarding = z.infer<typeof orderOnboarding>;

export const onboardParams = tokenParams.extend({ orderId: z.coerce.number().int().min(1).max(2_147_483_647) });
