import {
  CURRENCY_CODES,
  type AdminBillingItem,
  type AdminBillingItemList,
  type AdminBundle,
  type AdminBundleList,
  type AdminCategory,
  type AdminDomainDataEntry,
  type AdminDomainDataList,
  type AdminProduct,
  type AdminProductList,
  type BillingItemCreate,
  type BillingItemUpdate,
  type BundleCreate,
  type BundleUpdate,
  type CategoryInput,
  type CurrencyCode,
  type DomainDataCreate,
  type DomainDataType,
  type DomainDataUpdate,
  type PriceMap,
  type PriceOptionCreate,
  type PriceOptionUpdate,
  type PricesByCurrency,
  type ProductCreate,
  type ProductKindCode,
  type ProductUpdate,
} from '@pos/domain';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import {
  billingItemCategories,
  billingItemPrices,
  billingItems,
  bundlePriceOptions,
  bundles,
  domainData,
  productPrices,
  products,
} from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, fieldError, notFound, versionConflict } from '../../http/errors';

/*
 * Catalogue management for Admin (issue 17 point 4, decision 126). Every write runs in one transaction with its
 * audit entry; an edit names the version it read (stale → 409 with the current record). Prices are overwritten in
 * place: nothing issued reads them (invoice lines, the order document, the contract's stored PDF and the customer's
 * billing items keep their own amounts; catalogue-admin.test.ts shows it). Nothing is deleted, only deactivated.
 */

const emptyPrices = (): PriceMap => ({ USD: null, CAD: null });

async function audit(
  ctx: ServiceCtx,
  tx: Db,
  entry: { action: string; entity: string; entityId: number; before?: unknown; after?: unknown },
) {
  await writeAudit(tx, { ...ctx.actor, at: ctx.app.clock.now(), requestId: ctx.requestId, ...entry });
}

/** Writes the prices named in `prices`: a number sets it, null removes it, an absent currency is left as is. */
async function writePrices(
  tx: Db,
  table: typeof billingItemPrices | typeof productPrices,
  ownerId: number,
  prices: PricesByCurrency,
): Promise<void> {
  for (const currency of CURRENCY_CODES) {
    const value = prices[currency];
    if (value === undefined) continue;
    if (table === billingItemPrices) {
      await tx
        .delete(billingItemPrices)
        .where(and(eq(billingItemPrices.billingItemId, ownerId), eq(billingItemPrices.currency, currency)));
      if (value !== null)
        await tx.insert(billingItemPrices).values({ billingItemId: ownerId, currency, priceCents: value });
    } else {
      await tx
        .delete(productPrices)
        .where(and(eq(productPrices.productId, ownerId), eq(productPrices.currency, currency)));
      if (value !== null) await tx.insert(productPrices).values({ productId: ownerId, currency, priceCents: value });
    }
  }
}

// ── Billing items and categories ─────────────────────────────────────────────────────────────────────

async function categoriesOf(db: Db): Promise<AdminCategory[]> {
  return db
    .select({
      id: billingItemCategories.id,
      name: billingItemCategories.name,
      item_count: sql<number>`(select count(*) from billing_items b where b.category_id = billing_item_categories.id)::int`,
    })
    .from(billingItemCategories)
    .orderBy(asc(billingItemCategories.name), asc(billingItemCategories.id));
}

async function billingItemRows(db: Db, id?: number): Promise<AdminBillingItem[]> {
  const rows = await db
    .select({
      id: billingItems.id,
      name: billingItems.name,
      categoryId: billingItems.categoryId,
      categoryName: billingItemCategories.name,
      feature: billingItems.feature,
      chargeAtLevel: billingItems.chargeAtLevel,
      recurring: billingItems.recurring,
      active: billingItems.active,
      version: billingItems.version,
    })
    .from(billingItems)
    .leftJoin(billingItemCategories, eq(billingItemCategories.id, billingItems.categoryId))
    .where(id === undefined ? undefined : eq(billingItems.id, id))
    .orderBy(asc(billingItems.id));
  const ids = rows.map((r) => r.id);
  const prices =
    ids.length === 0
      ? []
      : await db.select().from(billingItemPrices).where(inArray(billingItemPrices.billingItemId, ids));
  const byItem = new Map<number, PriceMap>();
  for (const p of prices) {
    const map = byItem.get(p.billingItemId) ?? emptyPrices();
    map[p.currency as CurrencyCode] = p.priceCents;
    byItem.set(p.billingItemId, map);
  }
  return rows.map((r) => ({
    billing_item_id: r.id,
    name: r.name,
    category_id: r.categoryId,
    category_name: r.categoryName,
    feature: r.feature === 'Y' ? 'Y' : 'N',
    charge_at_level: r.chargeAtLevel === 'C' ? 'C' : 'S',
    recurring: r.recurring,
    active: r.active,
    prices: byItem.get(r.id) ?? emptyPrices(),
    version: r.version,
  }));
}

/** Every billing item (inactive too) with its price per currency, and the categories. */
export async function listAdminBillingItems(ctx: ServiceCtx): Promise<AdminBillingItemList> {
  const db = ctx.app.database.db;
  return { items: await billingItemRows(db), categories: await categoriesOf(db) };
}

async function checkCategory(tx: Db, categoryId: number | null): Promise<void> {
  if (categoryId === null) return;
  const [row] = await tx
    .select({ id: billingItemCategories.id })
    .from(billingItemCategories)
    .where(eq(billingItemCategories.id, categoryId));
  if (!row) throw fieldError('category_id', `There is no category ${categoryId}.`);
}

export async function createBillingItem(ctx: ServiceCtx, body: BillingItemCreate): Promise<AdminBillingItem> {
  const id = await withTx(ctx, async (tx) => {
    await checkCategory(tx, body.category_id);
    let id = body.billing_item_id;
    if (id === undefined) {
      // Billing items keep the spec's ids, so the table has no sequence: the next id after the highest.
      await tx.execute(sql`lock table billing_items in share row exclusive mode`);
      const [row] = await tx.select({ max: sql<number>`coalesce(max(${billingItems.id}), 0)::int` }).from(billingItems);
      id = row!.max + 1;
    } else {
      const [taken] = await tx.select({ id: billingItems.id }).from(billingItems).where(eq(billingItems.id, id));
      if (taken)
        throw new AppError('conflict', `Billing item ${id} already exists.`, {
          billing_item_id: `Billing item ${id} already exists.`,
        });
    }
    await tx.insert(billingItems).values({
      id,
      name: body.name,
      categoryId: body.category_id,
      feature: body.feature,
      chargeAtLevel: body.charge_at_level,
      recurring: body.recurring,
    });
    await writePrices(tx, billingItemPrices, id, body.prices);
    const [after] = await billingItemRows(tx, id);
    await audit(ctx, tx, { action: 'create', entity: 'billing_item', entityId: id, after });
    return id;
  });
  return (await billingItemRows(ctx.app.database.db, id))[0]!;
}

export async function updateBillingItem(
  ctx: ServiceCtx,
  input: { id: number; body: BillingItemUpdate },
): Promise<AdminBillingItem> {
  const { id, body } = input;
  await withTx(ctx, async (tx) => {
    const [before] = await billingItemRows(tx, id);
    if (!before) throw notFound(`Billing item ${id}`);
    await checkCategory(tx, body.category_id);
    const updated = await tx
      .update(billingItems)
      .set({
        name: body.name,
        categoryId: body.category_id,
        feature: body.feature,
        chargeAtLevel: body.charge_at_level,
        recurring: body.recurring,
        active: body.active,
        version: sql`${billingItems.version} + 1`,
        updatedAt: ctx.app.clock.now(),
      })
      .where(and(eq(billingItems.id, id), eq(billingItems.version, body.version)))
      .returning({ id: billingItems.id });
    if (updated.length === 0) throw versionConflict(`Billing item ${id}`, before, body.version);
    await writePrices(tx, billingItemPrices, id, body.prices);
    const [after] = await billingItemRows(tx, id);
    await audit(ctx, tx, { action: 'update', entity: 'billing_item', entityId: id, before, after });
  });
  return (await billingItemRows(ctx.app.database.db, id))[0]!;
}

async function categoryById(db: Db, id: number): Promise<AdminCategory | undefined> {
  return (await categoriesOf(db)).find((c) => c.id === id);
}

async function checkCategoryName(tx: Db, name: string, except?: number): Promise<void> {
  const [dup] = await tx
    .select({ id: billingItemCategories.id })
    .from(billingItemCategories)
    .where(
      and(
        sql`lower(${billingItemCategories.name}) = lower(${name})`,
        except === undefined ? undefined : ne(billingItemCategories.id, except),
      ),
    );
  if (dup)
    throw new AppError('conflict', `A category named ${name} already exists.`, {
      name: `A category named ${name} already exists.`,
    });
}

export async function createCategory(ctx: ServiceCtx, body: CategoryInput): Promise<AdminCategory> {
  const id = await withTx(ctx, async (tx) => {
    await checkCategoryName(tx, body.name);
    const [row] = await tx
      .insert(billingItemCategories)
      .values({ name: body.name })
      .returning({ id: billingItemCategories.id });
    await audit(ctx, tx, { action: 'create', entity: 'billing_item_category', entityId: row!.id, after: body });
    return row!.id;
  });
  return (await categoryById(ctx.app.database.db, id))!;
}

/** Renames a category (a name only: the last rename wins, decision 126). */
export async function renameCategory(
  ctx: ServiceCtx,
  input: { id: number; body: CategoryInput },
): Promise<AdminCategory> {
  const { id, body } = input;
  await withTx(ctx, async (tx) => {
    const before = await categoryById(tx, id);
    if (!before) throw notFound(`Category ${id}`);
    await checkCategoryName(tx, body.name, id);
    await tx.update(billingItemCategories).set({ name: body.name }).where(eq(billingItemCategories.id, id));
    await audit(ctx, tx, { action: 'update', entity: 'billing_item_category', entityId: id, before, after: body });
  });
  return (await categoryById(ctx.app.database.db, id))!;
}

// ── Bundles and price options ────────────────────────────────────────────────────────────────────────

async function bundleRows(db: Db, id?: number): Promise<AdminBundle[]> {
  const rows = await db
    .select()
    .from(bundles)
    .where(id === undefined ? undefined : eq(bundles.id, id))
    .orderBy(asc(bundles.id));
  const ids = rows.map((r) => r.id);
  const options =
    ids.length === 0
      ? []
      : await db
          .select({
            id: bundlePriceOptions.id,
            bundleId: bundlePriceOptions.bundleId,
            billingItemId: bundlePriceOptions.billingItemId,
            billingItemName: billingItems.name,
            currency: bundlePriceOptions.currency,
            referenceId: bundlePriceOptions.referenceId,
            label: bundlePriceOptions.label,
            priceCents: bundlePriceOptions.priceCents,
            term: bundlePriceOptions.term,
          })
          .from(bundlePriceOptions)
          .innerJoin(billingItems, eq(billingItems.id, bundlePriceOptions.billingItemId))
          .where(inArray(bundlePriceOptions.bundleId, ids))
          .orderBy(
            asc(bundlePriceOptions.currency),
            asc(bundlePriceOptions.billingItemId),
            sql`${bundlePriceOptions.referenceId} asc nulls first`,
            asc(bundlePriceOptions.id),
          );
  return rows.map((r) => ({
    bundle_id: r.id,
    name: r.name,
    description: r.description,
    nrs_pay: r.nrsPay,
    active: r.active,
    version: r.version,
    options: options
      .filter((o) => o.bundleId === r.id)
      .map((o) => ({
        id: o.id,
        billing_item_id: o.billingItemId,
        billing_item_name: o.billingItemName,
        currency: o.currency as CurrencyCode,
        reference_id: o.referenceId,
        label: o.label,
        price_cents: o.priceCents,
        term: o.term,
      })),
  }));
}

export async function listAdminBundles(ctx: ServiceCtx): Promise<AdminBundleList> {
  return { items: await bundleRows(ctx.app.database.db) };
}

export async function createBundle(ctx: ServiceCtx, body: BundleCreate): Promise<AdminBundle> {
  const id = await withTx(ctx, async (tx) => {
    let id = body.bundle_id;
    if (id === undefined) {
      await tx.execute(sql`lock table bundles in share row exclusive mode`);
      const [row] = await tx.select({ max: sql<number>`coalesce(max(${bundles.id}), 0)::int` }).from(bundles);
      id = row!.max + 1;
    } else {
      const [taken] = await tx.select({ id: bundles.id }).from(bundles).where(eq(bundles.id, id));
      if (taken)
        throw new AppError('conflict', `Bundle ${id} already exists.`, { bundle_id: `Bundle ${id} already exists.` });
    }
    await tx.insert(bundles).values({ id, name: body.name, description: body.description, nrsPay: body.nrs_pay });
    await audit(ctx, tx, { action: 'create', entity: 'bundle', entityId: id, after: body });
    return id;
  });
  return (await bundleRows(ctx.app.database.db, id))[0]!;
}

/** Moves the bundle's version on when it is the one read (else 409 with the bundle as it is). */
async function bumpBundle(
  tx: Db,
  ctx: ServiceCtx,
  id: number,
  version: number,
  set: Partial<typeof bundles.$inferInsert> = {},
) {
  const [before] = await bundleRows(tx, id);
  if (!before) throw notFound(`Bundle ${id}`);
  const updated = await tx
    .update(bundles)
    .set({ ...set, version: sql`${bundles.version} + 1`, updatedAt: ctx.app.clock.now() })
    .where(and(eq(bundles.id, id), eq(bundles.version, version)))
    .returning({ id: bundles.id });
  if (updated.length === 0) throw versionConflict(`Bundle ${id}`, before, version);
  return before;
}

export async function updateBundle(ctx: ServiceCtx, input: { id: number; body: BundleUpdate }): Promise<AdminBundle> {
  const { id, body } = input;
  await withTx(ctx, async (tx) => {
    const before = await bumpBundle(tx, ctx, id, body.version, {
      name: body.name,
      description: body.description,
      nrsPay: body.nrs_pay,
      active: body.active,
    });
    const [after] = await bundleRows(tx, id);
    await audit(ctx, tx, {
      action: 'update',
      entity: 'bundle',
      entityId: id,
      before: { ...before, options: undefined },
      after: { ...after, options: undefined },
    });
  });
  return (await bundleRows(ctx.app.database.db, id))[0]!;
}

async function checkBillingItem(tx: Db, billingItemId: number): Promise<void> {
  const [row] = await tx.select({ id: billingItems.id }).from(billingItems).where(eq(billingItems.id, billingItemId));
  if (!row) throw fieldError('billing_item_id', `There is no billing item ${billingItemId}.`);
}

export async function addPriceOption(
  ctx: ServiceCtx,
  input: { bundleId: number; body: PriceOptionCreate },
): Promise<AdminBundle> {
  const { bundleId, body } = input;
  await withTx(ctx, async (tx) => {
    await bumpBundle(tx, ctx, bundleId, body.version);
    await checkBillingItem(tx, body.billing_item_id);
    const [row] = await tx
      .insert(bundlePriceOptions)
      .values({
        bundleId,
        billingItemId: body.billing_item_id,
        currency: body.currency,
        referenceId: body.reference_id,
        label: body.label,
        priceCents: body.price_cents,
        term: body.term,
      })
      .returning({ id: bundlePriceOptions.id });
    await audit(ctx, tx, {
      action: 'create',
      entity: 'bundle_price_option',
      entityId: row!.id,
      after: { bundle_id: bundleId, ...body },
    });
  });
  return (await bundleRows(ctx.app.database.db, bundleId))[0]!;
}

export async function updatePriceOption(
  ctx: ServiceCtx,
  input: { bundleId: number; optionId: number; body: PriceOptionUpdate },
): Promise<AdminBundle> {
  const { bundleId, optionId, body } = input;
  await withTx(ctx, async (tx) => {
    const before = await bumpBundle(tx, ctx, bundleId, body.version);
    const option = before.options.find((o) => o.id === optionId);
    if (!option) throw notFound(`Price option ${optionId} of bundle ${bundleId}`);
    await checkBillingItem(tx, body.billing_item_id);
    await tx
      .update(bundlePriceOptions)
      .set({
        billingItemId: body.billing_item_id,
        currency: body.currency,
        referenceId: body.reference_id,
        label: body.label,
        priceCents: body.price_cents,
        term: body.term,
      })
      .where(eq(bundlePriceOptions.id, optionId));
    await audit(ctx, tx, {
      action: 'update',
      entity: 'bundle_price_option',
      entityId: optionId,
      before: { bundle_id: bundleId, ...option },
      after: { bundle_id: bundleId, ...body },
    });
  });
  return (await bundleRows(ctx.app.database.db, bundleId))[0]!;
}

// ── Products and terminal models ─────────────────────────────────────────────────────────────────────

async function productRows(db: Db, id?: number): Promise<AdminProduct[]> {
  const rows = await db
    .select()
    .from(products)
    .where(id === undefined ? undefined : eq(products.id, id))
    .orderBy(asc(products.id));
  const ids = rows.map((r) => r.id);
  const prices =
    ids.length === 0 ? [] : await db.select().from(productPrices).where(inArray(productPrices.productId, ids));
  return rows.map((r) => {
    const map = emptyPrices();
    for (const p of prices) if (p.productId === r.id) map[p.currency as CurrencyCode] = p.priceCents;
    return {
      product_id: r.id,
      name: r.name,
      sku: r.sku,
      kind: r.kind as ProductKindCode,
      description: r.description,
      active: r.active,
      prices: map,
      version: r.version,
    };
  });
}

export async function listAdminProducts(ctx: ServiceCtx): Promise<AdminProductList> {
  return { items: await productRows(ctx.app.database.db) };
}

async function checkSku(tx: Db, sku: string, except?: number): Promise<void> {
  const [dup] = await tx
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.sku, sku), except === undefined ? undefined : ne(products.id, except)));
  if (dup)
    throw new AppError('conflict', `SKU ${sku} is already product ${dup.id}.`, {
      sku: `SKU ${sku} is already product ${dup.id}.`,
    });
}

export async function createProduct(ctx: ServiceCtx, body: ProductCreate): Promise<AdminProduct> {
  const id = await withTx(ctx, async (tx) => {
    await checkSku(tx, body.sku);
    const [row] = await tx
      .insert(products)
      .values({ name: body.name, sku: body.sku, kind: body.kind, description: body.description })
      .returning({ id: products.id });
    await writePrices(tx, productPrices, row!.id, body.prices);
    const [after] = await productRows(tx, row!.id);
    await audit(ctx, tx, { action: 'create', entity: 'product', entityId: row!.id, after });
    return row!.id;
  });
  return (await productRows(ctx.app.database.db, id))[0]!;
}

export async function updateProduct(
  ctx: ServiceCtx,
  input: { id: number; body: ProductUpdate },
): Promise<AdminProduct> {
  const { id, body } = input;
  await withTx(ctx, async (tx) => {
    const [before] = await productRows(tx, id);
    if (!before) throw notFound(`Product ${id}`);
    await checkSku(tx, body.sku, id);
    const updated = await tx
      .update(products)
      .set({
        name: body.name,
        sku: body.sku,
        kind: body.kind,
        description: body.description,
        active: body.active,
        version: sql`${products.version} + 1`,
        updatedAt: ctx.app.clock.now(),
      })
      .where(and(eq(products.id, id), eq(products.version, body.version)))
      .returning({ id: products.id });
    if (updated.length === 0) throw versionConflict(`Product ${id}`, before, body.version);
    await writePrices(tx, productPrices, id, body.prices);
    const [after] = await productRows(tx, id);
    await audit(ctx, tx, { action: 'update', entity: 'product', entityId: id, before, after });
  });
  return (await productRows(ctx.app.database.db, id))[0]!;
}

// ── Domain data ──────────────────────────────────────────────────────────────────────────────────────

/** How many records name an entry: terminals retired for a reason (the other lists are read by code). */
const inUse = sql<number>`(select count(*) from terminals t where t.retire_reason_id = domain_data.id)::int`;

async function domainRows(db: Db, where: { type?: DomainDataType; id?: number }): Promise<AdminDomainDataEntry[]> {
  const rows = await db
    .select({
      id: domainData.id,
      type: domainData.type,
      code: domainData.code,
      label: domainData.label,
      sortOrder: domainData.sortOrder,
      active: domainData.active,
      version: domainData.version,
      inUse,
    })
    .from(domainData)
    .where(
      and(
        where.type === undefined ? undefined : eq(domainData.type, where.type),
        where.id === undefined ? undefined : eq(domainData.id, where.id),
      ),
    )
    .orderBy(asc(domainData.sortOrder), asc(domainData.label), asc(domainData.id));
  return rows.map((r) => ({
    id: r.id,
    type: r.type as DomainDataType,
    code: r.code,
    label: r.label,
    sort_order: r.sortOrder,
    active: r.active,
    in_use: r.inUse,
    version: r.version,
  }));
}

/** Every entry of a list, inactive ones too, in display order. */
export async function listAdminDomainData(ctx: ServiceCtx, type: DomainDataType): Promise<AdminDomainDataList> {
  return { type, items: await domainRows(ctx.app.database.db, { type }) };
}

export async function createDomainData(ctx: ServiceCtx, body: DomainDataCreate): Promise<AdminDomainDataEntry> {
  const id = await withTx(ctx, async (tx) => {
    const [dup] = await tx
      .select({ id: domainData.id })
      .from(domainData)
      .where(and(eq(domainData.type, body.type), sql`lower(${domainData.code}) = lower(${body.code})`));
    if (dup)
      throw new AppError('conflict', `The code ${body.code} is already in this list.`, {
        code: `The code ${body.code} is already in this list.`,
      });
    let sortOrder = body.sort_order;
    if (sortOrder === undefined) {
      const [row] = await tx
        .select({ max: sql<number>`coalesce(max(${domainData.sortOrder}), 0)::int` })
        .from(domainData)
        .where(eq(domainData.type, body.type));
      sortOrder = Math.min(row!.max + 1, 10_000);
    }
    const [row] = await tx
      .insert(domainData)
      .values({ type: body.type, code: body.code, label: body.label, sortOrder })
      .returning({ id: domainData.id });
    await audit(ctx, tx, {
      action: 'create',
      entity: 'domain_data',
      entityId: row!.id,
      after: { ...body, sort_order: sortOrder },
    });
    return row!.id;
  });
  return (await domainRows(ctx.app.database.db, { id }))[0]!;
}

/** Renames, reorders or (de)activates an entry; its code never changes (code reads by it: returns' RETURNED). */
export async function updateDomainData(
  ctx: ServiceCtx,
  input: { id: number; body: DomainDataUpdate },
): Promise<AdminDomainDataEntry> {
  const { id, body } = input;
  await withTx(ctx, async (tx) => {
    const [before] = await domainRows(tx, { id });
    if (!before) throw notFound(`List entry ${id}`);
    const updated = await tx
      .update(domainData)
      .set({
        label: body.label,
        sortOrder: body.sort_order,
        active: body.active,
        version: sql`${domainData.version} + 1`,
      })
      .where(and(eq(domainData.id, id), eq(domainData.version, body.version)))
      .returning({ id: domainData.id });
    if (updated.length === 0) throw versionConflict(`List entry ${id}`, before, body.version);
    const [after] = await domainRows(tx, { id });
    await audit(ctx, tx, { action: 'update', entity: 'domain_data', entityId: id, before, after });
  });
  return (await domainRows(ctx.app.database.db, { id }))[0]!;
}
