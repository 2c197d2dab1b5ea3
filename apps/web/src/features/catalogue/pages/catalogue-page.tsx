import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { BillingItemsTab } from '../components/billing-items-tab';
import { BundlesTab } from '../components/bundles-tab';
import { ListsTab } from '../components/lists-tab';
import { ProductsTab } from '../components/products-tab';

const TABS = [
  { value: 'billing-items', label: 'Billing items' },
  { value: 'bundles', label: 'Bundles' },
  { value: 'products', label: 'Products & terminals' },
  { value: 'lists', label: 'Lists' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

/**
 * #/admin/catalogue (Admin; issue 17 point 4, decision 126): billing items with prices per currency and categories,
 * bundles with their price options, products and terminal models, the look-up lists. A price change applies to what
 * is sold from now on; issued invoices and signed contracts keep their amounts.
 */
export default function CataloguePage() {
  const [params, setParams] = useSearchParams();
  const tab: TabValue = TABS.find((t) => t.value === params.get('tab'))?.value ?? 'billing-items';
  return (
    <Stack>
      <Title order={1} size="h2">
        Catalogue
      </Title>
      <Text c="dimmed" size="sm">
        Price changes apply to new orders and invoices; issued invoices and signed contracts keep their amounts.
      </Text>
      <Tabs
        value={tab}
        onChange={(v) => setParams(v && v !== 'billing-items' ? { tab: v } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="billing-items" pt="md">
          <BillingItemsTab />
        </Tabs.Panel>
        <Tabs.Panel value="bundles" pt="md">
          <BundlesTab />
        </Tabs.Panel>
        <Tabs.Panel value="products" pt="md">
          <ProductsTab />
        </Tabs.Panel>
        <Tabs.Panel value="lists" pt="md">
          <ListsTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
