import type { CurrencyCode, MerchantCountryCode } from '@pos/domain';

/**
 * What the customer page hands every store tab (the page owns the customer and the selected store; a tab
 * owns its own queries). `canEdit` is customer_details_edit; feature edits are checked by the tab itself.
 */
export interface StoreTabProps {
  readonly customerId: number;
  /** The selected store (null when the customer has none). */
  readonly storeId: number | null;
  readonly country: MerchantCountryCode;
  readonly currency: CurrencyCode;
  readonly canEdit: boolean;
}
