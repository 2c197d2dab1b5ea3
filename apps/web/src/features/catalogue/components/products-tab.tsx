import { Badge, Button, Checkbox, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { PRODUCT_KIND_CODES, PRODUCT_KIND_LABELS, type AdminProduct, type ProductKindCode } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { formatCents } from '../../../lib/format';
import { useAdminProducts, useSaveProduct } from '../api/catalogue-admin';
import type { Column } from '../lib/table';
import { CatalogueList, ListUnavailable } from './catalogue-list';
import { PriceFields, priceTextsOf, readPrices, type PriceTexts } from './price-fields';
import { useSave } from './use-save';

const COLUMNS: readonly Column<AdminProduct>[] = [
  { key: 'id', label: 'Id', value: (r) => r.product_id },
  { key: 'name', label: 'Name', value: (r) => r.name },
  { key: 'sku', label: 'SKU', value: (r) => r.sku },
  { key: 'kind', label: 'Kind', value: (r) => PRODUCT_KIND_LABELS[r.kind] },
  { key: 'usd', label: 'USD price', value: (r) => r.prices.USD },
  { key: 'cad', label: 'CAD price', value: (r) => r.prices.CAD },
  { key: 'active', label: 'Status', value: (r) => (r.active ? 'Active' : 'Inactive') },
];

function cell(row: AdminProduct, key: string) {
  if (key === 'usd') return formatCents(row.prices.USD, 'USD');
  if (key === 'cad') return formatCents(row.prices.CAD, 'CAD');
  if (key === 'active')
    return <Badge color={row.active ? 'green' : 'gray'}>{row.active ? 'Active' : 'Inactive'}</Badge>;
  return String(COLUMNS.find((c) => c.key === key)!.value(row) ?? '—');
}

function ProductDialog({ product, onClose }: { readonly product: AdminProduct | null; onClose: () => void }) {
  const [name, setName] = useState(product?.name ?? '');
  const [sku, setSku] = useState(product?.sku ?? '');
  const [kind, setKind] = useState<ProductKindCode>(product?.kind ?? 'terminal');
  const [description, setDescription] = useState(product?.description ?? '');
  const [active, setActive] = useState(product?.active ?? true);
  const [prices, setPrices] = useState<PriceTexts>(priceTextsOf(product?.prices ?? null));
  const saving = useSaveProduct();
  const { errors, setErrors, save } = useSave();

  function submit(e: FormEvent) {
    e.preventDefault();
    const read = readPrices(prices);
    if (Object.keys(read.bad).length > 0) return setErrors(read.bad);
    const fields = {
      name,
      sku,
      kind,
      description: description.trim() === '' ? null : description,
      prices: read.prices,
    };
    save(
      saving,
      product === null
        ? { id: null, body: fields }
        : { id: product.product_id, body: { ...fields, active, version: product.version } },
      `${PRODUCT_KIND_LABELS[kind]} ${name} saved.`,
      onClose,
    );
  }

  return (
    <Modal opened onClose={onClose} title={product ? `Edit product ${product.product_id}` : 'Add product'} size="lg">
      <form onSubmit={submit} aria-label={product ? 'Edit product' : 'Add product'} noValidate>
        <Stack>
          <TextInput
            label="Name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
          />
          <Group grow>
            <TextInput
              label="SKU"
              required
              value={sku}
              onChange={(e) => setSku(e.currentTarget.value)}
              error={errors.sku}
            />
            <Select
              label="Kind"
              data={PRODUCT_KIND_CODES.map((k) => ({ value: k, label: PRODUCT_KIND_LABELS[k] }))}
              value={kind}
              onChange={(v) => setKind((v as ProductKindCode | null) ?? 'terminal')}
              allowDeselect={false}
              error={errors.kind}
            />
          </Group>
          <Textarea
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={errors.description}
          />
          <PriceFields value={prices} onChange={setPrices} errors={errors} />
          {product && <Checkbox label="Active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving.isPending}>
              Save product
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Products and terminal models (kind terminal) with their prices per currency (decision 126). */
export function ProductsTab() {
  const query = useAdminProducts();
  const [editing, setEditing] = useState<AdminProduct | null | 'new'>(null);
  if (!query.data) return <ListUnavailable error={query.error} />;
  return (
    <>
      <CatalogueList
        caption="Products and terminal models"
        rows={query.data.items}
        columns={COLUMNS}
        render={cell}
        rowKey={(r) => r.product_id}
        csvPrefix="products"
        initialSort={{ key: 'id', desc: false }}
        toolbar={<Button onClick={() => setEditing('new')}>Add product</Button>}
        actions={(r) => (
          <Button size="xs" variant="light" onClick={() => setEditing(r)} aria-label={`Edit ${r.name}`}>
            Edit
          </Button>
        )}
      />
      {editing !== null && (
        <ProductDialog
          key={editing === 'new' ? 'new' : editing.product_id}
          product={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
