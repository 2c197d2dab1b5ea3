import { BILLING_ITEM_IDS, MARKETPLACE_FEE_ITEM_IDS, PROMOTION_ITEM_IDS, type StoreFeature } from '@pos/domain';

export interface CatalogueOption {
  readonly id: number;
  readonly label: string;
}

function words(constantName: string): string {
  const text = constantName.toLowerCase().replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The billing items a person can pick (decision 068): the §9 billing item ids the domain names (tax 6 …
 * cancellation fee 91, marketplace fees 113–115, promotion items 1, 66–68), plus the store's software
 * features as the features call lists them (names and ids from the server's catalogue). There is no
 * catalogue list call in the customer-accounts contract; the server prices an item from its catalogue.
 */
export function billingCatalogue(features: readonly StoreFeature[] = []): CatalogueOption[] {
  const options: CatalogueOption[] = [
    ...Object.entries(BILLING_ITEM_IDS).map(([name, id]) => ({ id, label: words(name) })),
    ...MARKETPLACE_FEE_ITEM_IDS.map((id) => ({ id, label: `Marketplace fee (${id})` })),
    ...PROMOTION_ITEM_IDS.map((id) => ({ id, label: `Promotion item (${id})` })),
    ...features.map((f) => ({ id: f.billing_item_id, label: `${f.name} (feature)` })),
  ];
  const seen = new Set<number>();
  return options
    .filter((o) => (seen.has(o.id) ? false : (seen.add(o.id), true)))
    .sort((a, b) => a.label.localeCompare(b.label));
}
