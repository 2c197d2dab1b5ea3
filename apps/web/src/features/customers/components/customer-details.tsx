import { Anchor, Button, Stack, Tabs, Text } from '@mantine/core';
import { currencyForCountry, isCurrencyCode, isMerchantCountry, type CustomerRecord } from '@pos/domain';
import { useState, type ComponentType } from 'react';
import { Link } from 'react-router';
import { useCustomer } from '../../../api/customers';
import { StoreFilesPanel } from '../../../components/store-files-panel';
import { isApiError } from '../../../lib/api';
import { usePageCountry } from '../../../lib/header-state';
import type { CustomerPermissions } from '../api/permissions';
import { ActivityTab } from '../core-tabs/activity-tab';
import { EmailsTab } from '../core-tabs/emails-tab';
import { NotesTab } from '../core-tabs/notes-tab';
import { OrdersTab } from '../core-tabs/orders-tab';
import { SalesHistoryTab } from '../core-tabs/sales-history-tab';
import { customerPagePath, STORE_TABS, type StoreTab } from '../lib/url-state';
import type { StoreTabProps } from '../tab-props';
import {
  BillingItemsTab,
  BundlesTab,
  InvoicesTab,
  PlansTab,
  PromotionsTab,
  TerminalsTab,
  TransactionsTab,
} from '../tabs/account-tabs';
import { CustomerHeader } from './customer-header';
import { EditCustomerDialog } from './edit-customer-dialog';
import { StoreActions } from './store-actions';
import { StoresList } from './stores-list';

/** Which component draws each tab: the account tabs (tabs/) and the core tabs (core-tabs/). */
const TAB_COMPONENTS: Readonly<Record<StoreTab, ComponentType<StoreTabProps>>> = {
  terminals: TerminalsTab,
  plans: PlansTab,
  'billing-items': BillingItemsTab,
  bundles: BundlesTab,
  promotions: PromotionsTab,
  transactions: TransactionsTab,
  invoices: InvoicesTab,
  notes: NotesTab,
  emails: EmailsTab,
  orders: OrdersTab,
  'sales-history': SalesHistoryTab,
  activity: ActivityTab,
};

export interface CustomerDetailsProps {
  readonly customerId: number;
  /** The store asked for in the address (null or not the customer's: the first store). */
  readonly storeId: number | null;
  readonly tab: StoreTab;
  /** The search the user came from ('' when none), for "Back to results". */
  readonly q: string;
  readonly permissions: CustomerPermissions;
  readonly onSelectStore: (storeId: number) => void;
  readonly onTab: (tab: StoreTab) => void;
}

/** A customer: header, the store's actions, the stores list, and the selected store's tabs. */
export function CustomerDetails({
  customerId,
  storeId,
  tab,
  q,
  permissions,
  onSelectStore,
  onTab,
}: CustomerDetailsProps) {
  const customer = useCustomer(customerId);
  // The header's Canadian flag while a Canadian customer is open (cleared when leaving).
  usePageCountry(customer.data?.country ?? null);

  const back = q.trim() ? (
    <Anchor component={Link} to={customerPagePath({ q })} size="sm">
      ← Back to results for “{q.trim()}”
    </Anchor>
  ) : null;

  if (!customer.data) {
    const notFound = isApiError(customer.error) && customer.error.status === 404;
    return (
      <Stack gap="sm">
        {back}
        <Text c="dimmed" role={customer.isError ? 'alert' : undefined}>
          {notFound
            ? `Customer ${customerId} was not found. Check the id or search again.`
            : customer.isError
              ? 'The customer could not be loaded. Try again in a moment.'
              : `Loading customer ${customerId}…`}
        </Text>
      </Stack>
    );
  }
  return (
    <CustomerLoaded
      customer={customer.data}
      storeId={storeId}
      tab={tab}
      back={back}
      permissions={permissions}
      onSelectStore={onSelectStore}
      onTab={onTab}
    />
  );
}

interface CustomerLoadedProps extends Omit<CustomerDetailsProps, 'customerId' | 'q'> {
  readonly customer: CustomerRecord;
  readonly back: React.ReactNode;
}

function CustomerLoaded({ customer, storeId, tab, back, permissions, onSelectStore, onTab }: CustomerLoadedProps) {
  const [editing, setEditing] = useState(false);
  const store = customer.stores.find((s) => s.store_id === storeId) ?? customer.stores[0] ?? null;
  const country = isMerchantCountry(customer.country) ? customer.country : 'US';
  const tabProps: StoreTabProps = {
    customerId: customer.customer_id,
    storeId: store?.store_id ?? null,
    country,
    currency: isCurrencyCode(customer.currency) ? customer.currency : currencyForCountry(country),
    canEdit: permissions.canEdit,
  };
  const Panel = TAB_COMPONENTS[tab];

  return (
    <Stack gap="md">
      {back}
      <CustomerHeader
        customer={customer}
        store={store}
        actions={
          permissions.canEdit ? (
            <Button variant="light" onClick={() => setEditing(true)}>
              Edit customer
            </Button>
          ) : null
        }
      />
      {permissions.canEdit && (
        <EditCustomerDialog customer={customer} opened={editing} onClose={() => setEditing(false)} />
      )}
      <StoresList stores={customer.stores} selectedId={store?.store_id ?? null} onSelect={onSelectStore} />
      {store && <StoreActions store={store} permissions={permissions} />}
      {store && (
        <StoreFilesPanel
          key={store.store_id}
          owner={{ kind: 'store', id: store.store_id }}
          canUpload={permissions.canEdit}
          canDelete={permissions.canEdit}
        />
      )}
      <Tabs value={tab} onChange={(value) => value && onTab(value as StoreTab)} keepMounted={false}>
        <Tabs.List aria-label={store ? `Store ${store.store_id}: ${store.doing_business_as}` : 'Customer'}>
          {STORE_TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={tab} pt="md">
          <Panel key={`${tabProps.storeId}`} {...tabProps} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
