import { Alert, Anchor, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import {
  isCurrencyCode,
  isMerchantCountry,
  type CurrencyCode,
  type CustomerRecord,
  type MerchantCountryCode,
  type StoreRecord,
} from '@pos/domain';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useCustomer } from '../../../../api/customers';
import { describeError } from '../../../../lib/error-message';
import { usePageCountry } from '../../../../lib/header-state';
import { customerPagePath } from '../../lib/url-state';

function positiveInt(text: string | null): number | null {
  return text !== null && /^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

/** `?customer=100001&store=500002` of the edit pages (decision 065). */
export function readEditPageParams(params: URLSearchParams): { customerId: number | null; storeId: number | null } {
  return { customerId: positiveInt(params.get('customer')), storeId: positiveInt(params.get('store')) };
}

/** What an edit page's body gets once the customer is loaded. */
export interface EditPageContext {
  readonly customer: CustomerRecord;
  /** The store named in the address, else the customer's first; null when the customer has none. */
  readonly store: StoreRecord | null;
  readonly country: MerchantCountryCode;
  readonly currency: CurrencyCode;
}

export interface EditPageFrameProps {
  readonly title: string;
  readonly intro: string;
  readonly children: (context: EditPageContext) => ReactNode;
}

/**
 * The frame of /editpayment, /editpaymentplan and /editplan: reads `customer` and `store` from the query
 * string, loads the customer, shows who is being edited, a store picker (it rewrites `store`), and a Back
 * link to the customer page at the same store. The Canadian flag shows in the header for a CA store.
 */
export function EditPageFrame({ title, intro, children }: EditPageFrameProps) {
  const [params, setParams] = useSearchParams();
  const { customerId, storeId } = readEditPageParams(params);
  const record = useCustomer(customerId);
  const customer = record.data;
  const store = customer ? (customer.stores.find((s) => s.store_id === storeId) ?? customer.stores[0] ?? null) : null;
  const countryText = store?.country ?? customer?.country ?? null;
  const country: MerchantCountryCode = isMerchantCountry(countryText) ? countryText : 'US';
  const currencyText = store?.currency ?? customer?.currency;
  const currency: CurrencyCode = isCurrencyCode(currencyText) ? currencyText : 'USD';
  usePageCountry(customer ? country : null);

  const back = customerId ? customerPagePath({ customerId, storeId: store?.store_id ?? storeId }) : '/customer';
  let body: ReactNode;
  if (customerId === null) {
    body = (
      <Alert color="orange" title="Which customer?" role="alert">
        This page edits one customer&apos;s store. Open it from the customer page (its address names the customer and
        the store).
      </Alert>
    );
  } else if (record.isError) {
    const { title: problem, message } = describeError(record.error);
    body = (
      <Alert color="red" title={problem} role="alert">
        {message}
      </Alert>
    );
  } else if (!customer) {
    body = (
      <Text c="dimmed" role="status">
        Loading the customer…
      </Text>
    );
  } else {
    body = children({ customer, store, country, currency });
  }

  return (
    <Stack gap="md" maw={960}>
      <Anchor component={Link} to={back} size="sm">
        ← Back to the customer
      </Anchor>
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {intro}
        </Text>
      </div>
      {customer && (
        <Group align="flex-end" gap="lg">
          <div>
            <Text size="xs" c="dimmed">
              Customer
            </Text>
            <Text fw={600}>
              {customer.legal_name} ({customer.customer_id})
            </Text>
          </div>
          {customer.stores.length > 0 && (
            <NativeSelect
              label="Store"
              data={customer.stores.map((s) => ({
                value: String(s.store_id),
                label: `${s.doing_business_as} (${s.store_id})`,
              }))}
              value={String(store?.store_id ?? '')}
              onChange={(e) => {
                const next = new URLSearchParams(params);
                next.set('store', e.currentTarget.value);
                setParams(next, { replace: true });
              }}
              w={320}
            />
          )}
          <div>
            <Text size="xs" c="dimmed">
              Currency
            </Text>
            <Text fw={600}>{currency === 'CAD' ? 'CAD (C$)' : 'USD ($)'}</Text>
          </div>
        </Group>
      )}
      {body}
    </Stack>
  );
}
