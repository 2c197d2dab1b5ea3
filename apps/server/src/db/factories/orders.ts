import { and, eq, sql } from 'drizzle-orm';
import {
  ORDER_DEFAULTS,
  ORDER_STATUS,
  PAYMENT_PLAN_KIND,
  blankOrder,
  centsToDecimal,
  type OrderFlow,
  type OrderStatusCode,
  type OrderType,
} from '@pos/domain';
import type { Db } from '../client';
import { customers, orderNotes, orderStatusHistory, orders, statusReasons, stores, type AddressJson } from '../schema';
import { uniqueSuffix } from './sequence';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
type CustomerRow = typeof customers.$inferSelect;
type StoreRow = typeof stores.$inferSelect;
type Loose<T> = { [K in keyof T]?: T[K] | null };

export interface OrderPlanInput {
  paymentPlanId?: number | null;
  initialPaymentCents: number;
  recurringCents: number;
  term: number;
  interval: number;
  planName?: string;
}

export interface OrderDocumentInput {
  orderInfoId: number;
  unifiedOrderId: string;
  flow?: OrderFlow;
  orderType?: OrderType;
  orderDate?: Date;
  salesRep?: string | null;
  /** A customer row, or insert values of one not (yet) in the database. */
  customer?: Loose<CustomerRow> | null;
  store?: Loose<StoreRow> | null;
  noOfTerminals?: number;
  totalSaleCents?: number;
  hardwarePlan?: OrderPlanInput;
  monthlyPlan?: OrderPlanInput;
  user?: { name: string; email: string };
  storeInfo?: Record<string, unknown>;
  billingItems?: unknown[];
  promotions?: unknown[];
  bundles?: unknown[];
  notes?: unknown[];
}

export type OrderDocument = Record<string, unknown> & { orderInfoId: number; unifiedOrderId: string };

const money = (cents: number) => centsToDecimal(cents);

/**
 * The order JSON document of spec §3: the domain's blank template (`blankOrder()`: every section, the spec
 * defaults), filled from a customer and store when given. Money values are decimal strings, as the order screens
 * exchange them. What is not known keeps the template's blank value.
 */
export function buildOrderDocument(input: OrderDocumentInput): OrderDocument {
  const blank = blankOrder();
  const c = input.customer ?? null;
  const s = input.store ?? null;
  const country = c?.country ?? 'US';
  const blankAddress = (template: unknown): AddressJson => ({ ...(template as AddressJson), country });
  const hw = input.hardwarePlan ?? { initialPaymentCents: 0, recurringCents: 0, term: 0, interval: 0 };
  const mo = input.monthlyPlan ?? { initialPaymentCents: 0, recurringCents: 0, term: 1, interval: 1 };
  const storeAddress = s?.storeAddress ?? blankAddress(blank.StoreInfo?.StoreAddress);
  const noOfTerminals = input.noOfTerminals ?? blank.noOfTerminals ?? ORDER_DEFAULTS.noOfTerminals;
  const [hwPlanBlank, moPlanBlank] = blank.PaymentPlanInfo ?? [];
  const [hwMethodBlank, moMethodBlank] = blank.PaymentInstrumentInfo ?? [];
  const planEntry = (
    template: Record<string, unknown> | undefined,
    type: string,
    p: OrderPlanInput,
    hardware: boolean,
  ) => ({
    ...template,
    type,
    paymentPlanId: p.paymentPlanId ?? null,
    initialPaymentAmount: money(p.initialPaymentCents),
    recurringAmount: money(p.recurringCents),
    term: p.term,
    interval: p.interval,
    ...(hardware ? { planName: p.planName ?? 'Hardware sale plan', showTermsFlag: p.term > 0 } : {}),
  });
  const instrumentEntry = (template: Record<string, unknown> | undefined, type: string, hardware: boolean) => ({
    ...template,
    type,
    nameOnAccount: c ? `${c.firstName} ${c.lastName}` : null,
    paymentProcessorReference: c?.paymentProcessorReference ?? null,
    ...(hardware ? { noofPOS: noOfTerminals } : {}),
  });
  return {
    ...blank,
    orderInfoId: input.orderInfoId,
    salesRep: input.salesRep ?? null,
    noOfTerminals,
    flow: input.flow ?? 'AR',
    billingCustomerId: c?.id ?? null,
    orderDate: (input.orderDate ?? new Date()).toISOString(),
    totalSalePrice: money(input.totalSaleCents ?? 0),
    orderType: input.orderType ?? ORDER_DEFAULTS.orderType,
    unifiedOrderId: input.unifiedOrderId,
    preferredTrainingLanguage: 'English',
    CustomerInfo: {
      ...blank.CustomerInfo,
      ...(c
        ? {
            title: c.title ?? null,
            firstName: c.firstName ?? '',
            middleName: c.middleName ?? null,
            lastName: c.lastName ?? '',
            phone: c.phone ?? null,
            email: c.email ?? '',
            brAcct: c.brAcct ?? null,
            federalTaxId: c.federalTaxId ?? null,
            ofaCustomerId: c.ofaCustomerId ?? null,
            oasisId: c.oasisId ?? null,
            paymentProcessorReference: c.paymentProcessorReference ?? null,
            businessType: c.businessType ?? null,
            resaleCertificate: c.resaleCertificate ?? null,
          }
        : {}),
    },
    HomeAddress: c?.homeAddress ?? blankAddress(blank.HomeAddress),
    BillingAddress: c?.billingAddress ?? blankAddress(blank.BillingAddress),
    ShippingAddress: c?.shippingAddress ?? blankAddress(blank.ShippingAddress),
    StoreInfo: {
      ...blank.StoreInfo,
      ...(s
        ? {
            doingBusinessAs: s.doingBusinessAs ?? '',
            customerStoreId: s.id ?? null,
            storeName: s.storeName ?? '',
            phone: s.phone ?? null,
            mobilePhone: s.mobilePhone ?? null,
            kindOfBusiness: s.kindOfBusiness ?? null,
          }
        : {}),
      StoreAddress: storeAddress,
      DbaAddress: s?.dbaAddress ?? storeAddress,
      GeocodedAddress: s?.geocodedAddress ?? blank.StoreInfo?.GeocodedAddress ?? {},
      ...input.storeInfo,
    },
    PromotionInfo: input.promotions ?? blank.PromotionInfo,
    BillingItemInfo: input.billingItems ?? blank.BillingItemInfo,
    NoteInfo: input.notes ?? blank.NoteInfo,
    BundleInfo: input.bundles ?? blank.BundleInfo,
    PaymentPlanInfo: [
      planEntry(hwPlanBlank, PAYMENT_PLAN_KIND.HARDWARE, hw, true),
      planEntry(moPlanBlank, PAYMENT_PLAN_KIND.MONTHLY, mo, false),
    ],
    PaymentInstrumentInfo: [
      instrumentEntry(hwMethodBlank, PAYMENT_PLAN_KIND.HARDWARE, true),
      instrumentEntry(moMethodBlank, PAYMENT_PLAN_KIND.MONTHLY, false),
    ],
    PaymentInfo: { ...blank.PaymentInfo, paymentProcessorReference: c?.paymentProcessorReference ?? null },
    UserInfo: input.user ?? blank.UserInfo,
    additionalInfo: {
      ...blank.additionalInfo,
      billingCustomerID: c?.id ?? null,
      customerID: c?.id ?? null,
      ofa_id: c?.ofaCustomerId ?? null,
    },
  };
}

/**
 * An order with its §3 document. With customerId/storeId the document is filled from them (a storeId alone
 * brings its customer); without, it is a blank draft. The id is taken from the identity first so that the
 * document's orderInfoId matches it.
 */
export async function createOrder(
  db: Db,
  overrides: Partial<NewOrder> & { documentInput?: Partial<OrderDocumentInput> } = {},
): Promise<OrderRow> {
  const { documentInput, ...values } = overrides;
  let store: StoreRow | undefined;
  let customer: CustomerRow | undefined;
  if (values.storeId != null) [store] = await db.select().from(stores).where(eq(stores.id, values.storeId));
  const customerId = values.customerId ?? store?.customerId;
  if (customerId != null) [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
  const id =
    values.id ??
    Number(
      (
        (await db.execute(sql`select nextval(pg_get_serial_sequence('orders', 'id')) as id`)) as unknown as {
          rows: { id: string }[];
        }
      ).rows[0]!.id,
    );
  const unifiedOrderId = values.unifiedOrderId ?? `UO-${uniqueSuffix()}`;
  const createdByEmail = values.createdByEmail ?? 'admin@example.com';
  const document =
    values.document ??
    buildOrderDocument({
      orderInfoId: id,
      unifiedOrderId,
      flow: values.flow as OrderFlow | undefined,
      orderType: values.orderType as OrderType | undefined,
      salesRep: values.salesRep ?? store?.salesRep ?? null,
      customer: customer ?? null,
      store: store ?? null,
      totalSaleCents: values.totalSaleCents ?? 0,
      user: { name: createdByEmail.split('@')[0]!, email: createdByEmail },
      ...documentInput,
    });
  // A factory order at Installation has its terminals' serial numbers entered, so it can be completed (decision 150).
  const atInstallation = values.document === undefined && values.status === ORDER_STATUS.INSTALLATION;
  const withSerials = atInstallation
    ? {
        ...document,
        TerminalSerials: Array.from(
          { length: (document as { noOfTerminals?: number | null }).noOfTerminals ?? 0 },
          (_, i) => `SN-${unifiedOrderId}-${i + 1}`,
        ),
      }
    : document;
  const [row] = await db
    .insert(orders)
    .values({
      status: '1',
      salesRep: store?.salesRep ?? null,
      customerId: customer?.id ?? null,
      fedTaxId: customer?.federalTaxId ?? null,
      legalName: customer?.legalName ?? null,
      dbaName: store?.doingBusinessAs ?? null,
      country: customer?.country ?? 'US',
      currency: customer?.currency ?? 'USD',
      ...values,
      id,
      unifiedOrderId,
      createdByEmail,
      document: withSerials,
    })
    .returning();
  return row!;
}

export async function createStatusReason(
  db: Db,
  overrides: { status?: OrderStatusCode; reason?: string; sortOrder?: number } = {},
): Promise<typeof statusReasons.$inferSelect> {
  const status = overrides.status ?? '3';
  const reason = overrides.reason ?? 'Incomplete documents';
  await db
    .insert(statusReasons)
    .values({ status, reason, sortOrder: overrides.sortOrder ?? 0 })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(statusReasons)
    .where(and(eq(statusReasons.status, status), eq(statusReasons.reason, reason)));
  return row!;
}

/** An order note (default order_note); the order is created unless given. */
export async function createOrderNote(
  db: Db,
  overrides: Partial<typeof orderNotes.$inferInsert> = {},
): Promise<typeof orderNotes.$inferSelect> {
  const orderId = overrides.orderId ?? (await createOrder(db)).id;
  const [row] = await db
    .insert(orderNotes)
    .values({
      noteType: 'order_note',
      body: 'Merchant asked for a morning installation.',
      createdByEmail: 'service@example.com',
      ...overrides,
      orderId,
    })
    .returning();
  return row!;
}

export async function createOrderStatusChange(
  db: Db,
  overrides: Partial<typeof orderStatusHistory.$inferInsert> & { orderId: number; toStatus: OrderStatusCode },
): Promise<typeof orderStatusHistory.$inferSelect> {
  const [row] = await db
    .insert(orderStatusHistory)
    .values({ changedByEmail: 'admin@example.com', ...overrides })
    .returning();
  return row!;
}
