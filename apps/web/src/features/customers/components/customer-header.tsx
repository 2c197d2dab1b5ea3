import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { routePath, type CustomerRecord, type Permission, type StoreRecord } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { useSalesPerson } from '../api/customers';
import { countryName, currencyLabel, formatCents, formatDate } from '../../../lib/format';
import { StatusBadge } from './status-badge';

export interface CustomerHeaderProps {
  readonly customer: CustomerRecord;
  /** The selected store (its DBA shows); null when the customer has none. */
  readonly store: StoreRecord | null;
  /** Edit buttons (only with customer_details_edit). */
  readonly actions?: ReactNode;
}

function Fact({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * The customer at a glance: legal name, DBA (of the selected store), country, currency (CAD as C$),
 * status, what it owes (the ledger's open balance per currency) and since when (its oldest overdue due date),
 * account manager and sales person, plus ids and contact.
 */
const REPORTS_PRIVILEGES: readonly Permission[] = ['reports_edit'];

export function CustomerHeader({ customer, store, actions }: CustomerHeaderProps) {
  const salesPerson = useSalesPerson(customer.sales_person?.id ?? null);
  const sp = customer.sales_person;
  const channel = salesPerson.data?.sales_channel;
  // The sales person's page (#/sales-person/{id}, decision 129) is a reports screen: linked only with reports_edit.
  const reports = useQuery({ ...getPermissionsQueryOptions(REPORTS_PRIVILEGES), meta: { silentError: true } });
  const canOpenRep = reports.data?.reports_edit === true;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="customer-title">
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Title order={1} size="h2" id="customer-title">
            {customer.legal_name}
          </Title>
          <Text c="dimmed">
            Customer {customer.customer_id}
            {customer.federal_tax_id ? ` · Federal tax id ${customer.federal_tax_id}` : ''}
          </Text>
        </div>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} spacing="sm" m={0}>
        <Fact label="DBA">{store?.doing_business_as ?? '—'}</Fact>
        <Fact label="Country">{countryName(customer.country)}</Fact>
        <Fact label="Currency">{currencyLabel(customer.currency)}</Fact>
        <Fact label="Status">
          <StatusBadge status={customer.status} />
        </Fact>
        <Fact label="Open balance">
          {customer.open_balances.length === 0
            ? formatCents(0, customer.currency)
            : customer.open_balances.map((b) => formatCents(b.open_cents, b.currency)).join(' + ')}
        </Fact>
        <Fact label="Oldest overdue">
          {customer.oldest_overdue_on ? (
            <Text component="span" c="red" fw={700}>
              Due {formatDate(customer.oldest_overdue_on)}
            </Text>
          ) : (
            'Nothing overdue'
          )}
        </Fact>
        <Fact label="Account manager">{customer.account_manager ?? '—'}</Fact>
        <Fact label="Sales person">
          {sp ? (
            <Stack gap={0} component="span">
              <span>
                {canOpenRep ? (
                  <Anchor href={`#${routePath('salesPerson', { salesPersonId: sp.id })}`}>{sp.name}</Anchor>
                ) : (
                  sp.name
                )}
                {channel ? ` (${channel})` : ''}
              </span>
              <Text component="span" size="xs" c="dimmed">
                {sp.email}
              </Text>
            </Stack>
          ) : (
            '—'
          )}
        </Fact>
        <Fact label="Contact">
          {[customer.title, customer.first_name, customer.last_name].filter(Boolean).join(' ')}
        </Fact>
        <Fact label="E-mail / phone">
          <Stack gap={0} component="span">
            <span>{customer.email}</span>
            <Text component="span" size="xs" c="dimmed">
              {customer.phone ?? 'no phone'}
            </Text>
          </Stack>
        </Fact>
      </SimpleGrid>
    </Paper>
  );
}
