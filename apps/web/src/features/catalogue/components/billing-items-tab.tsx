import { Badge, Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import type { AdminBillingItem, AdminCategory } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { formatCents } from '../../../lib/format';
import { useAdminBillingItems, useSaveBillingItem, useSaveCategory } from '../api/catalogue-admin';
import type { Column } from '../lib/table';
import { CatalogueList, ListUnavailable } from './catalogue-list';
import { PriceFields, priceTextsOf, readPrices, type PriceTexts } from './price-fields';
import { useSave } from './use-save';

const COLUMNS: readonly Column<AdminBillingItem>[] = [
  { key: 'id', label: 'Id', value: (r) => r.billing_item_id },
  { key: 'name', label: 'Name', value: (r) => r.name },
  { key: 'category', label: 'Category', value: (r) => r.category_name },
  { key: 'usd', label: 'USD price', value: (r) => r.prices.USD },
  { key: 'cad', label: 'CAD price', value: (r) => r.prices.CAD },
  { key: 'charged', label: 'Charged per', value: (r) => (r.charge_at_level === 'C' ? 'Customer' : 'Store') },
  { key: 'active', label: 'Status', value: (r) => (r.active ? 'Active' : 'Inactive') },
];

function cell(row: AdminBillingItem, key: string) {
  switch (key) {
    case 'usd':
      return formatCents(row.prices.USD, 'USD');
    case 'cad':
      return formatCents(row.prices.CAD, 'CAD');
    case 'active':
      return <Badge color={row.active ? 'green' : 'gray'}>{row.active ? 'Active' : 'Inactive'}</Badge>;
    case 'name':
      return (
        <>
          {row.name}
          {row.feature === 'Y' && (
            <Badge ml="xs" variant="light" size="xs">
              Feature
            </Badge>
          )}
          {row.recurring && (
            <Badge ml="xs" variant="light" size="xs" color="grape">
              Recurring
            </Badge>
          )}
        </>
      );
    default:
      return String(COLUMNS.find((c) => c.key === key)!.value(row) ?? '—');
  }
}

function BillingItemDialog({
  item,
  categories,
  onClose,
}: {
  readonly item: AdminBillingItem | null;
  readonly categories: readonly AdminCategory[];
  onClose: () => void;
}) {
  const [name, setName] = useState(item?.name ?? '');
  const [categoryId, setCategoryId] = useState<string | null>(item?.category_id ? String(item.category_id) : null);
  const [feature, setFeature] = useState(item?.feature === 'Y');
  const [level, setLevel] = useState<string>(item?.charge_at_level ?? 'S');
  const [recurring, setRecurring] = useState(item?.recurring ?? false);
  const [active, setActive] = useState(item?.active ?? true);
  const [prices, setPrices] = useState<PriceTexts>(priceTextsOf(item?.prices ?? null));
  const saving = useSaveBillingItem();
  const { errors, setErrors, save } = useSave();

  function submit(e: FormEvent) {
    e.preventDefault();
    const read = readPrices(prices);
    if (Object.keys(read.bad).length > 0) return setErrors(read.bad);
    const fields = {
      name,
      category_id: categoryId === null ? null : Number(categoryId),
      feature: feature ? ('Y' as const) : ('N' as const),
      charge_at_level: level === 'C' ? ('C' as const) : ('S' as const),
      recurring,
      prices: read.prices,
    };
    save(
      saving,
      item === null
        ? { id: null, body: fields }
        : { id: item.billing_item_id, body: { ...fields, active, version: item.version } },
      `Billing item ${name} saved.`,
      onClose,
    );
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={item ? `Edit billing item ${item.billing_item_id}` : 'Add billing item'}
      size="lg"
    >
      <form onSubmit={submit} aria-label={item ? 'Edit billing item' : 'Add billing item'} noValidate>
        <Stack>
          <TextInput
            label="Name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
          />
          <Select
            label="Category"
            placeholder="No category"
            clearable
            data={categories.map((c) => ({ value: String(c.id), label: c.name }))}
            value={categoryId}
            onChange={setCategoryId}
            error={errors.category_id}
          />
          <Select
            label="Charged per"
            data={[
              { value: 'S', label: 'Store' },
              { value: 'C', label: 'Customer' },
            ]}
            value={level}
            onChange={(v) => setLevel(v ?? 'S')}
            allowDeselect={false}
          />
          <Group>
            <Checkbox
              label="Software feature"
              checked={feature}
              onChange={(e) => setFeature(e.currentTarget.checked)}
            />
            <Checkbox label="Recurring" checked={recurring} onChange={(e) => setRecurring(e.currentTarget.checked)} />
            {item && <Checkbox label="Active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />}
          </Group>
          <PriceFields value={prices} onChange={setPrices} errors={errors} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving.isPending}>
              Save billing item
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function CategoryDialog({
  category,
  categories,
  onClose,
}: {
  readonly category: AdminCategory | null;
  readonly categories: readonly AdminCategory[];
  onClose: () => void;
}) {
  const [picked, setPicked] = useState<string | null>(category ? String(category.id) : null);
  const [name, setName] = useState(category?.name ?? '');
  const saving = useSaveCategory();
  const { errors, save } = useSave();
  function submit(e: FormEvent) {
    e.preventDefault();
    save(saving, { id: picked === null ? null : Number(picked), body: { name } }, `Category ${name} saved.`, onClose);
  }
  return (
    <Modal opened onClose={onClose} title="Categories">
      <form onSubmit={submit} aria-label="Category" noValidate>
        <Stack>
          <Select
            label="Category to rename"
            placeholder="A new category"
            clearable
            data={categories.map((c) => ({ value: String(c.id), label: `${c.name} (${c.item_count} items)` }))}
            value={picked}
            onChange={(v) => {
              setPicked(v);
              setName(categories.find((c) => String(c.id) === v)?.name ?? '');
            }}
          />
          <TextInput
            label="Category name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving.isPending}>
              {picked === null ? 'Add category' : 'Rename category'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Billing items with their prices per currency and categories (decision 126). */
export function BillingItemsTab() {
  const query = useAdminBillingItems();
  const [editing, setEditing] = useState<AdminBillingItem | null | 'new'>(null);
  const [categories, setCategories] = useState(false);
  if (!query.data) return <ListUnavailable error={query.error} />;
  const { items, categories: cats } = query.data;
  return (
    <>
      <CatalogueList
        caption="Billing items"
        rows={items}
        columns={COLUMNS}
        render={cell}
        rowKey={(r) => r.billing_item_id}
        csvPrefix="billing-items"
        initialSort={{ key: 'id', desc: false }}
        toolbar={
          <>
            <Button variant="default" onClick={() => setCategories(true)}>
              Categories
            </Button>
            <Button onClick={() => setEditing('new')}>Add billing item</Button>
          </>
        }
        actions={(r) => (
          <Button size="xs" variant="light" onClick={() => setEditing(r)} aria-label={`Edit ${r.name}`}>
            Edit
          </Button>
        )}
      />
      {editing !== null && (
        <BillingItemDialog
          key={editing === 'new' ? 'new' : editing.billing_item_id}
          item={editing === 'new' ? null : editing}
          categories={cats}
          onClose={() => setEditing(null)}
        />
      )}
      {categories && <CategoryDialog category={null} categories={cats} onClose={() => setCategories(false)} />}
    </>
  );
}
