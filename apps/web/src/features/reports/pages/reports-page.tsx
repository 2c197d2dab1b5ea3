import { Stack, Tabs, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { AgingReport } from '../components/aging-report';
import { FailedPaymentsReport } from '../components/failed-payments-report';
import { OrdersReport } from '../components/orders-report';
import { RevenueReport } from '../components/revenue-report';
import { SalesReport } from '../components/sales-report';

/** The tabs of the screen, in order; `value` is the `?tab=` of the address (a link opens one). */
export const REPORT_TABS = [
  { value: 'aging', label: 'AR aging' },
  { value: 'revenue', label: 'Revenue' },
  { value: 'failed-payments', label: 'Failed payments' },
  { value: 'orders', label: 'Orders' },
  { value: 'sales', label: 'Sales' },
] as const;
export type ReportTab = (typeof REPORT_TABS)[number]['value'];

function isReportTab(value: string | null): value is ReportTab {
  return REPORT_TABS.some((t) => t.value === value);
}

/**
 * #/reports (privilege reports_edit; issue 18, decision 128): AR aging (the AR team's work list), revenue, failed
 * payments and recovery, orders and sales — one tab each, the open one kept in the address (?tab=aging). Every tab has
 * the same layout (issue 30's list kit): the filter bar on top (Apply shows the report; the applied filters are in the
 * address, so a report view can be shared), Export CSV under it, then the charts and tables.
 */
export default function ReportsPage() {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab: ReportTab = isReportTab(asked) ? asked : 'aging';

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Reports
      </Title>
      <Tabs
        value={tab}
        keepMounted={false}
        onChange={(value) => {
          // Each tab keeps its own view in the address (filters, sort, page, open figure); another tab starts afresh,
          // and Back returns to the tab before with its view.
          if (isReportTab(value)) setSearch(new URLSearchParams({ tab: value }));
        }}
      >
        <Tabs.List aria-label="Reports">
          {REPORT_TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="aging" pt="md">
          <AgingReport />
        </Tabs.Panel>
        <Tabs.Panel value="revenue" pt="md">
          <RevenueReport />
        </Tabs.Panel>
        <Tabs.Panel value="failed-payments" pt="md">
          <FailedPaymentsReport />
        </Tabs.Panel>
        <Tabs.Panel value="orders" pt="md">
          <OrdersReport />
        </Tabs.Panel>
        <Tabs.Panel value="sales" pt="md">
          <SalesReport />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
