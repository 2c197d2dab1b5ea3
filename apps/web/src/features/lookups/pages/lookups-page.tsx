import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { BillingItemsLookup } from '../components/billing-items-lookup';
import { BundlePricesLookup } from '../components/bundle-prices-lookup';
import { ReferralLookup } from '../components/referral-lookup';
import { TerminalProductsLookup } from '../components/terminal-products-lookup';

/** The tabs of the screen, in order; `value` is the `?tab=` of the address (a link opens one). */
const LOOKUP_TABS = [
  { value: 'billing-items', label: 'Billing items' },
  { value: 'terminals', label: 'Terminal products' },
  { value: 'bundle-prices', label: 'Bundle prices' },
  { value: 'referral', label: 'Referral' },
] as const;
type LookupTab = (typeof LOOKUP_TABS)[number]['value'];

function isLookupTab(value: string | null): value is LookupTab {
  return LOOKUP_TABS.some((t) => t.value === value);
}

/**
 * #/lookups (any session; spec §1, decision 161): what agents (Distributor, REFP, RDC) and staff look up while they
 * sell — billing items by category, terminal products, a bundle's price options and a referral — read-only, from the
 * catalogue calls every session may make. The open tab and its choices are in the address (issue 30), so Back,
 * reload and a copied link show the same look-up.
 */
export default function LookupsPage() {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab: LookupTab = isLookupTab(asked) ? asked : 'billing-items';

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Look-ups
      </Title>
      <Text c="dimmed" size="sm">
        Read only: the catalogue&apos;s billing items, terminal products and bundle prices in the currency you choose,
        and a referral by its code.
      </Text>
      <Tabs
        value={tab}
        keepMounted={false}
        onChange={(value) => {
          // Each tab keeps its own choices in the address; another tab starts afresh, Back returns to the one before.
          if (isLookupTab(value)) setSearch(value === 'billing-items' ? {} : { tab: value });
        }}
      >
        <Tabs.List aria-label="Look-ups">
          {LOOKUP_TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="billing-items" pt="md">
          <Stack gap="md">
            <BillingItemsLookup />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="terminals" pt="md">
          <Stack gap="md">
            <TerminalProductsLookup />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="bundle-prices" pt="md">
          <Stack gap="md">
            <BundlePricesLookup />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="referral" pt="md">
          <Stack gap="md">
            <ReferralLookup />
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
