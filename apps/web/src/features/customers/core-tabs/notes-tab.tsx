import { Button, Checkbox, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { CUSTOMER_NOTE_MAX, createCustomerNoteRequest } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { ListPagination } from '../../../components/list/list-pagination';
import { NOTES_PAGE_SIZE, useCreateCustomerNote, useCustomerNotes } from '../api/customers';
import { checkBody, serverFields } from '../lib/edit-form';
import { formatDateTime, humanize } from '../../../lib/format';
import { notifySuccess } from '../lib/notify';
import type { StoreTabProps } from '../tab-props';

/**
 * Notes (GET/POST …/customernotes): the selected store's notes, newest first — or every note of the
 * customer — and, with customer_details_edit, a form to add one to the store.
 */
export function NotesTab({ customerId, storeId, canEdit }: StoreTabProps) {
  const [allStores, setAllStores] = useState(false);
  const [paging, setPaging] = useState({ key: '', page: 1 });
  const scope = allStores ? null : storeId;
  const key = `${storeId}:${allStores}`;
  const page = paging.key === key ? paging.page : 1;
  const notes = useCustomerNotes(customerId, scope, page);

  return (
    <Stack gap="md">
      {canEdit && <AddNoteForm customerId={customerId} storeId={storeId} />}
      <Group justify="space-between">
        <Text fw={700} component="h3" m={0} size="md">
          {allStores ? 'All notes of the customer' : `Notes of store ${storeId ?? '—'}`}
        </Text>
        <Checkbox
          label="Show notes of every store"
          checked={allStores}
          onChange={(e) => setAllStores(e.currentTarget.checked)}
        />
      </Group>
      <Stack
        component="ul"
        gap="xs"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label="Notes"
        aria-busy={notes.isFetching}
      >
        {notes.data?.items.map((n) => (
          <Paper component="li" withBorder p="sm" key={n.id}>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{n.note}</Text>
            <Text size="xs" c="dimmed" mt={4}>
              {n.created_by} · {formatDateTime(n.created_at)} · {humanize(n.note_type)}
              {allStores && n.customer_store_id ? ` · store ${n.customer_store_id}` : ''}
              {n.customer_store_id === null ? ' · customer note' : ''}
            </Text>
          </Paper>
        ))}
      </Stack>
      {notes.data && notes.data.items.length === 0 && <Text c="dimmed">No notes yet.</Text>}
      {!notes.data && <Text c="dimmed">{notes.isError ? 'The notes could not be loaded.' : 'Loading notes…'}</Text>}
      <ListPagination
        hideSinglePage
        label="Note pages"
        total={notes.data?.total ?? 0}
        pageSize={NOTES_PAGE_SIZE}
        page={page}
        onChange={(p) => setPaging({ key, page: p })}
      />
    </Stack>
  );
}

function AddNoteForm({ customerId, storeId }: { readonly customerId: number; readonly storeId: number | null }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateCustomerNote(customerId);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkBody(createCustomerNoteRequest, { note: text, customer_store_id: storeId });
    if (!checked.ok) {
      setError(checked.fields.note ?? checked.message);
      return;
    }
    setError(null);
    create.mutate(checked.data, {
      onSuccess: () => {
        setText('');
        notifySuccess('The note was added.');
      },
      onError: (e) => setError(serverFields(e).note ?? null),
    });
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Add a note">
      <Stack gap="xs">
        <Textarea
          label="Note"
          description={`${storeId ? `Added to store ${storeId}` : 'Added to the customer'}; ${text.length}/${CUSTOMER_NOTE_MAX} characters.`}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          rows={3}
          maxLength={CUSTOMER_NOTE_MAX}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Add note
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
