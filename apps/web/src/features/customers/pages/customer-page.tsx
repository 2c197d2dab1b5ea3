import { Stack, Text, Title } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { useCustomerPermissions } from '../api/permissions';
import { CustomerDetails } from '../components/customer-details';
import { CustomerSearchForm } from '../components/customer-search-form';
import { CustomerSearchView } from '../components/customer-search-view';
import { customerPagePath, parseCustomerPageParams, type CustomerPageState } from '../lib/url-state';

/**
 * #/customer (guard customer_details_view or customer_details_edit): the customer search and, with
 * `?id=`, a customer's details (decision 060 for the address). Searching and opening a customer add a
 * history entry; choosing a store, a tab or a results page replaces the current one.
 */
export default function CustomerPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const state = parseCustomerPageParams(params);
  const permissions = useCustomerPermissions();
  const go = (next: Partial<CustomerPageState>, replace = false) => navigate(customerPagePath(next), { replace });

  return (
    <Stack gap="lg">
      {state.customerId === null && (
        <div>
          <Title order={1} size="h2">
            Customers
          </Title>
          <Text c="dimmed" size="sm">
            Find a customer by id, store id, federal tax id, or part of a name, DBA, bracct or sales rep.
          </Text>
        </div>
      )}
      <CustomerSearchForm initial={state.q} onSearch={(text) => go({ q: text })} />
      {state.customerId === null ? (
        <CustomerSearchView
          q={state.q}
          page={state.page}
          sort={state.sort}
          onPage={(page) => go({ ...state, page }, true)}
          onSort={(sort) => go({ ...state, sort, page: 1 }, true)}
        />
      ) : (
        <CustomerDetails
          customerId={state.customerId}
          storeId={state.storeId}
          tab={state.tab}
          q={state.q}
          permissions={permissions}
          onSelectStore={(storeId) => go({ ...state, storeId }, true)}
          onTab={(tab) => go({ ...state, tab }, true)}
        />
      )}
    </Stack>
  );
}
