import { Button, Grid, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { ListPagination } from '../../../components/list/list-pagination';
import { MAIL_PAGE_SIZE, MAIL_TEMPLATES, useExportMail, useMailList, type MailFilter } from '../api/mail';
import { MailDetail } from '../components/mail-detail';
import { MailTable } from '../components/mail-table';
import { FilterSelect, LiveFilterBar } from '../../../components/list';

/** How long typing in the recipient box waits before it asks the server. */
export const RECIPIENT_DEBOUNCE_MS = 300;

const TEMPLATE_OPTIONS = [{ value: '', label: 'Any template' }, ...MAIL_TEMPLATES];

/**
 * #/admin/mailbox (Admin): every message the product sent or kept — with the default local mail nothing
 * leaves the machine and the public-link flows are followed from here (issue 5 item 4).
 */
export default function MailboxPage() {
  const [toInput, setToInput] = useState('');
  const [template, setTemplate] = useState('');
  const [to] = useDebouncedValue(toInput, RECIPIENT_DEBOUNCE_MS);
  const filter: MailFilter = { to, template: template || null };
  const filterKey = JSON.stringify(filter);
  // A new filter starts again at page 1.
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const [selectedId, setSelectedId] = useState<number | null>(null);

  const list = useMailList(filter, page);
  const exportCsv = useExportMail();

  const total = list.data?.total ?? 0;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Mailbox
          </Title>
          <Text c="dimmed" size="sm">
            Every e-mail the back office sent or kept, newest first.
          </Text>
        </div>
        <Group gap="sm">
          <Button variant="default" onClick={() => void list.refetch()} loading={list.isFetching}>
            Refresh
          </Button>
          <Button onClick={() => exportCsv.mutate(filter)} loading={exportCsv.isPending} disabled={total === 0}>
            Export CSV
          </Button>
        </Group>
      </Group>

      <LiveFilterBar label="Filter messages">
        <TextInput
          label="Recipient"
          description="Part of the e-mail address"
          type="search"
          value={toInput}
          onChange={(e) => setToInput(e.currentTarget.value)}
          w={280}
        />
        <FilterSelect
          label="Template"
          description="What kind of message"
          data={TEMPLATE_OPTIONS}
          value={template}
          onChange={setTemplate}
          w={260}
        />
      </LiveFilterBar>

      {exportCsv.isSuccess && (
        <Text role="status" size="sm">
          Exported {exportCsv.data.count} {exportCsv.data.count === 1 ? 'message' : 'messages'} to{' '}
          {exportCsv.data.fileName}.
        </Text>
      )}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <section aria-label="Messages" aria-busy={list.isFetching}>
            <Stack gap="sm">
              {list.data ? (
                <MailTable items={list.data.items} selectedId={selectedId} onSelect={setSelectedId} />
              ) : (
                <Text c="dimmed">{list.isError ? 'The messages could not be loaded.' : 'Loading messages…'}</Text>
              )}
              <ListPagination
                label="Message pages"
                total={total}
                totalCapped={list.data?.total_capped ?? false}
                pageRows={list.data?.items.length ?? 0}
                pageSize={MAIL_PAGE_SIZE}
                page={page}
                onChange={(p) => setPaging({ filterKey, page: p })}
              />
            </Stack>
          </section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <MailDetail id={selectedId} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
