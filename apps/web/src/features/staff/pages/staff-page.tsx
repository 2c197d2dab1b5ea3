import { Alert, Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { STAFF_TEXT_MAX } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  bindFilter,
  DataTable,
  DetailPane,
  emptyListText,
  ExportCsvButton,
  FilterBar,
  FilterSelect,
  FilterText,
  ListError,
  listCaption,
  ListPagination,
  NoWrapCell,
  SortHeader,
  useListState,
} from '../../../components/list';
import { formatDateTime } from '../../../lib/format';
import {
  exportStaff,
  getRolesPrivilegesQueryOptions,
  getStaffListQueryOptions,
  NO_STAFF_FILTERS,
  STAFF_PAGE_SIZE,
  type StaffFilters,
  type StaffListParams,
} from '../api/staff';
import { StaffPanel } from '../components/staff-panel';
import { privilegeLabel } from '../privilege-label';

const ACTIVE_OPTIONS = [
  { value: '', label: 'Any' },
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Deactivated' },
];

/** The staff id of `#/admin/staff?id=…`: a positive whole number, else null. */
function staffIdOf(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}

const LIST_OPTIONS = { defaults: NO_STAFF_FILTERS, defaultSort: 'name' } as const;

/**
 * #/admin/staff (Admin; issue 31 item 2, decision 157): every staff account — search by name or e-mail, role, active
 * — sorted and paged on the server, with CSV export. Filters, sort, page and the open account are in the address
 * (`#/admin/staff?role=3&active=true&id=12`). The open account stands beside the list: its role, its extra privileges,
 * Deactivate / Reactivate.
 */
export default function StaffPage() {
  const list = useListState<StaffFilters>(LIST_OPTIONS);
  const { draft, applied, page, sort } = list;
  const [errors, setErrors] = useState<Partial<Record<keyof StaffFilters, string>>>({});
  const field = bindFilter(list, errors);
  const idParam = list.selected;
  const openId = staffIdOf(idParam);

  const params: StaffListParams = { ...applied, page, sort: sort === LIST_OPTIONS.defaultSort ? null : sort };
  const staff = useQuery(getStaffListQueryOptions(params));
  const options = useQuery(getRolesPrivilegesQueryOptions());
  const items = staff.data?.items ?? [];
  const total = staff.data?.total ?? 0;
  const roleOptions = [
    { value: '', label: 'Any role' },
    ...(options.data?.roles ?? []).map((r) => ({ value: String(r.id), label: r.name })),
  ];
  // A role in the address before the roles have loaded (or one that is gone) still shows as chosen.
  if (draft.role && !roleOptions.some((o) => o.value === draft.role))
    roleOptions.push({ value: draft.role, label: `Role ${draft.role}` });

  function apply() {
    const found: Partial<Record<keyof StaffFilters, string>> = {};
    if (draft.q.trim().length > STAFF_TEXT_MAX) found.q = `At most ${STAFF_TEXT_MAX} characters.`;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    list.apply();
  }
  function clear() {
    setErrors({});
    list.clear();
  }
  const close = () => list.select(null);
  const onSort = list.setSort;

  const columns = [
    <SortHeader key="name" column="name" sort={sort} onSort={onSort}>
      Name
    </SortHeader>,
    <SortHeader key="email" column="email" sort={sort} onSort={onSort}>
      E-mail
    </SortHeader>,
    'Role',
    'Extra privileges',
    'Status',
    <SortHeader key="last_sign_in_at" column="last_sign_in_at" sort={sort} onSort={onSort} descFirst>
      Last sign-in
    </SortHeader>,
  ];

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Staff
      </Title>
      <FilterBar label="Filter staff" onApply={apply} onClear={clear}>
        <FilterText label="Name or e-mail" description="Any part of it" {...field('q')} />
        <FilterSelect label="Role" data={roleOptions} w={200} {...field('role')} />
        <FilterSelect label="Status" data={ACTIVE_OPTIONS} w={150} {...field('active')} />
      </FilterBar>
      <ExportCsvButton run={(ctx) => exportStaff(params, ctx)} disabled={total === 0} />
      {idParam !== null && openId === null && (
        <Alert color="red" title="Not a staff account" withCloseButton closeButtonLabel="Dismiss" onClose={close}>
          This address does not name a staff account. Open the account from the list.
        </Alert>
      )}
      <ListError error={staff.error} />
      <DataTable
        caption={listCaption('Staff', { isPending: staff.isPending, total }, { one: 'account', many: 'accounts' })}
        columns={columns}
        minWidth={960}
        rowCount={items.length}
        emptyText={emptyListText(staff.isPending, 'No staff account matches. Change or clear the filters.')}
        highlightOnHover
      >
        {items.map((a) => (
          <Table.Tr key={a.id} aria-selected={a.id === openId || undefined}>
            <NoWrapCell>
              <Anchor component={Link} to={list.hrefFor(a.id)} fz="sm" aria-label={`Open ${a.name}`}>
                {a.name}
              </Anchor>
            </NoWrapCell>
            <Table.Td>{a.email}</Table.Td>
            <NoWrapCell>{a.role}</NoWrapCell>
            <Table.Td>
              {a.additional_privileges.length > 0 ? (
                a.additional_privileges.map(privilegeLabel).join(', ')
              ) : (
                <Text span c="dimmed" fz="sm">
                  None
                </Text>
              )}
            </Table.Td>
            <NoWrapCell>
              <Badge color={a.active ? 'green' : 'gray'} variant="light">
                {a.active ? 'Active' : 'Deactivated'}
              </Badge>
            </NoWrapCell>
            <NoWrapCell>{a.last_sign_in_at ? formatDateTime(a.last_sign_in_at) : 'Never'}</NoWrapCell>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Staff pages"
        total={total}
        pageRows={items.length}
        pageSize={STAFF_PAGE_SIZE}
        page={page}
        onChange={list.setPage}
        hideSinglePage
      />
      {openId !== null && (
        <DetailPane label="Staff member" onClose={close}>
          <StaffPanel key={openId} staffId={openId} onClose={close} />
        </DetailPane>
      )}
    </Stack>
  );
}
