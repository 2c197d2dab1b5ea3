import { z } from 'zod';
import { MERCHANT_COUNTRY_CODES } from '../codes/countries';
import {
  ORDER_DEFAULTS,
  ORDER_FLOWS,
  ORDER_TYPE,
  ORDER_TYPES,
  PAYMENT_PLAN_KIND,
  PAYMENT_PLAN_KINDS,
} from '../codes/order';
import { ORDER_STATUS_CODES } from '../codes/order-status';
import { SALE_KINDS, type SaleKind } from '../codes/sales';
import { isStateOf } from '../codes/states';
import { isValidEmail } from '../rules/email';
import { isValidPercent } from '../rules/percent';
import { validateZip } from '../rules/zip';
import { EMAIL_MESSAGE, PERCENT_MESSAGE, paginationQuerySchema, pagedList } from './common';
import { crmOrderMark } from './crm';
import { tokenParams } from './customers';

/*
 * The §3 order summary document (decisions 014, 077) and the order-info calls (decision 078).
 *
 * Two schemas over one shape:
 * - `orderDraft`: any field may be missing, null or blank, but a present value must be well-formed
 *   (e-mail rule, ZIP of the address's country, US/CA state list, percent 0–100, money as decimal strings,
 *   no card number).
 * - `orderForSubmit`: the draft rules plus the fields a submit needs (see `SUBMIT_REQUIREMENTS` below).
 * Sections are loose objects: a key the spec lists but we do not interpret is kept, never dropped.
 */

// ── Field helpers ───────────────────────────────────────────────────────────────────────────────────

const text = (max = 255) => z.string().max(max).nullish();
/** A scalar the screens send either as text or as a number (square footage, item counts…). */
const scalar = z.union([z.string().max(255), z.number()]).nullish();
const idLike = z.union([z.number().int(), z.string().max(64)]).nullish();
const SALE_KIND_MESSAGE = 'Kind of sale is E (existing store), T (transfer), U (upgrade) or R (replacement).';

export const DECIMAL_MONEY_MESSAGE = 'Enter an amount like 1499.00 (at most 2 decimals).';
const DECIMAL_MONEY = /^\d{1,13}(\.\d{1,2})?$/;
/** Money inside the document: a non-negative decimal string ('1499.00'), decision 014. Blank allowed in a draft. */
const money = z
  .string()
  .trim()
  .refine((v) => v === '' || DECIMAL_MONEY.test(v), { message: DECIMAL_MONEY_MESSAGE })
  .nullish();

const email = z
  .string()
  .trim()
  .refine((v) => v === '' || isValidEmail(v), { message: EMAIL_MESSAGE })
  .nullish();

export const CARD_NUMBER_MESSAGE = 'A card number is never stored: send the gateway token or the last 4 digits only.';
const LAST4 = /^\d{4}$/;
const MASKED = /^[*xX•.\s-]{4,}\d{4}$/;
const GATEWAY_TOKEN = /^[A-Za-z]{2,10}_[A-Za-z0-9_]{6,}$/;
/** Whether a creditCardNumber value may be stored: blank, last 4 digits, a masked number, or a gateway token. */
export function isStorableCardReference(value: string | null | undefined): boolean {
  if (value == null) return true;
  const v = value.trim();
  return v === '' || LAST4.test(v) || MASKED.test(v) || GATEWAY_TOKEN.test(v);
}
const cardReference = z.string().max(255).refine(isStorableCardReference, { message: CARD_NUMBER_MESSAGE }).nullish();

const countryOrBlank = z.union([z.literal(''), z.enum(MERCHANT_COUNTRY_CODES as ['US', 'CA'])]).nullish();

/** An address of the document: each field may be blank in a draft; a ZIP/state present must fit the country. */
export const orderAddress = z
  .looseObject({
    address1: text(),
    address2: text(),
    city: text(),
    state: text(50),
    zip: text(20),
    country: countryOrBlank,
  })
  .superRefine((a, ctx) => {
    const country = a.country ?? '';
    if (country === '') return;
    if (a.zip != null && a.zip.trim() !== '') {
      const zip = validateZip(country, a.zip);
      if (!zip.ok) ctx.addIssue({ code: 'custom', path: ['zip'], message: zip.message });
    }
    if (a.state != null && a.state.trim() !== '' && !isStateOf(country, a.state.trim())) {
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message: country === 'CA' ? 'Choose a Canadian province or territory.' : 'Choose a US state or territory.',
      });
    }
  });
export type OrderAddress = z.infer<typeof orderAddress>;

export const geocodedAddress = z.looseObject({
  lattitude: z.number().min(-90).max(90).nullish(),
  longitude: z.number().min(-180).max(180).nullish(),
  placeId: text(),
  streetNumber: text(),
  streetName: text(),
  city: text(),
  county: text(),
  state: text(50),
  zip: text(20),
  zip4: text(10),
  country: text(50),
  singleLine: text(500),
});

const yesNo = z.enum(['Yes', 'No']).nullish();
const yN = z.enum(['Y', 'N']).nullish();

export const customerInfo = z.looseObject({
  title: text(),
  firstName: text(),
  middleName: text(),
  lastName: text(),
  phone: text(30),
  email,
  brAcct: text(),
  federalTaxId: text(30),
  ofaCustomerId: idLike,
  oasisId: idLike,
  paymentProcessorReference: text(),
  businessType: text(),
  customerCategory: text(),
  resaleCertificate: text(),
  customerClass: text(),
});

export const storeInfo = z.looseObject({
  doingBusinessAs: text(),
  customerStoreId: idLike,
  storeName: text(),
  phone: text(30),
  mobilePhone: text(30),
  kindOfBusiness: text(),
  currentPos: text(),
  squareFootage: scalar,
  numberOfItems: scalar,
  onlineSource: text(),
  monthlyGrossSales: scalar,
  paperRollsPerWeek: scalar,
  inventoryDatabaseExists: yesNo,
  internetConnectionType: text(),
  availablePorts: scalar,
  posPhysicalLocation: text(),
  typeOfMachine: text(),
  acceptsCreditCards: yesNo,
  creditCardProcessor: text(),
  specialInstructions: text(4000),
  dbaAddressSameAsLegal: z.boolean().nullish(),
  dbaSameAsLegal: z.boolean().nullish(),
  StoreAddress: orderAddress.nullish(),
  DbaAddress: orderAddress.nullish(),
  GeocodedAddress: geocodedAddress.nullish(),
});

const paymentPlanKind = z.enum(PAYMENT_PLAN_KINDS as [string, ...string[]]);

export const paymentPlanEntry = z.looseObject({
  type: paymentPlanKind.nullish(),
  paymentPlanId: idLike,
  hardwareSalePlan: z.boolean().nullish(),
  monthlyPlan: z.boolean().nullish(),
  initialPaymentAmount: money,
  recurringAmount: money,
  term: z.number().int().min(0).max(600).nullish(),
  interval: z.number().int().min(0).max(600).nullish(),
  planName: text(),
  showTermsFlag: z.boolean().nullish(),
  isDisable: z.boolean().nullish(),
  additionalEquipmentAllowed: z.boolean().nullish(),
});

export const paymentInstrumentEntry = z.looseObject({
  type: paymentPlanKind.nullish(),
  paymentMethodTypeId: idLike,
  paymentMethodCode: text(),
  paymentDescription: text(),
  paymentPlanId: idLike,
  nameOnAccount: text(),
  creditCardNumber: cardReference,
  expirationDate: text(10),
  issuer: text(),
  achAccountNumber: text(34),
  achRoutingNumber: text(20),
  achBankName: text(),
  achAccountType: text(),
  achInstitutionNumber: text(10),
  processorSetupIntent: text(),
  paymentProcessorReference: text(),
  paymentMethodSet: z.boolean().nullish(),
  noofPOS: z.number().int().min(0).max(999).nullish(),
});

/** additionalDiscount: a decimal amount ('25.00'), or `{ type: 'percent', value: 0–100 }` / `{ type: 'amount', value: '25.00' }`. */
export const additionalDiscount = z.union([
  money,
  z.object({ type: z.literal('percent'), value: z.number().refine(isValidPercent, { message: PERCENT_MESSAGE }) }),
  z.object({ type: z.literal('amount'), value: money }),
]);

const listEntry = z.record(z.string(), z.unknown());

const orderShape = z.looseObject({
  orderInfoId: idLike,
  mobileConsent: yN,
  orgId: idLike,
  orgName: text(),
  salesRep: text(),
  noOfTerminals: z.number().int().min(0).max(999).nullish(),
  /** The terminals' serial numbers entered at Installation (decision 150), one per terminal in order. */
  TerminalSerials: z.array(z.string().max(64)).max(999).nullish(),
  skipContractRegeneration: z.boolean().nullish(),
  flow: z.enum(ORDER_FLOWS as ['AR', 'RAM']).nullish(),
  billingCustomerId: idLike,
  orderDate: text(40),
  totalSalePrice: money,
  byoe: yN,
  orderType: z.enum(ORDER_TYPES as ['P', 'N']).nullish(),
  unifiedOrderId: text(64),
  preferredTrainingLanguage: text(),
  CustomerInfo: customerInfo.nullish(),
  HomeAddress: orderAddress.nullish(),
  BillingAddress: orderAddress.nullish(),
  ShippingAddress: orderAddress.nullish(),
  StoreInfo: storeInfo.nullish(),
  PromotionInfo: z.array(listEntry).max(200).nullish(),
  BillingItemInfo: z.array(listEntry).max(500).nullish(),
  NoteInfo: z.array(listEntry).max(500).nullish(),
  BundleInfo: z.array(listEntry).max(200).nullish(),
  additionalDiscount: additionalDiscount.nullish(),
  SaleRepChecklist: z.record(z.string(), z.unknown()).nullish(),
  PaymentPlanInfo: z.array(paymentPlanEntry).max(2).nullish(),
  PaymentInstrumentInfo: z.array(paymentInstrumentEntry).max(2).nullish(),
  PaymentInfo: z.looseObject({ transactionTypeId: idLike, paymentProcessorReference: text() }).nullish(),
  UserInfo: z.looseObject({ name: text(), email }).nullish(),
  additionalInfo: z
    .looseObject({
      billingCustomerID: idLike,
      customerID: idLike,
      ofa_id: idLike,
      org_id: idLike,
      /** An existing customer's order: E add-on (also when absent), T transfer, U upgrade, R replacement (163). */
      saleKind: z.enum(SALE_KINDS as [SaleKind, ...SaleKind[]], { message: SALE_KIND_MESSAGE }).nullish(),
    })
    .nullish(),
  /** A CRM order (decision 159): the lead it came from and the external order marker; absent otherwise. */
  CrmOrder: crmOrderMark.nullish(),
});

/** Draft: anything may be missing or blank; what is present is well-formed. Plan/instrument types appear once each. */
export const orderDraft = orderShape.superRefine((doc, ctx) => {
  for (const list of ['PaymentPlanInfo', 'PaymentInstrumentInfo'] as const) {
    const seen = new Set<string>();
    (doc[list] ?? []).forEach((entry, i) => {
      if (entry.type == null) return;
      if (seen.has(entry.type))
        ctx.addIssue({ code: 'custom', path: [list, i, 'type'], message: `Only one '${entry.type}' entry.` });
      seen.add(entry.type);
    });
  }
});
export type OrderDocument = z.infer<typeof orderDraft>;

const blank = (v: unknown) => v == null || (typeof v === 'string' && v.trim() === '');
const ADDRESS_REQUIRED = ['address1', 'city', 'state', 'zip', 'country'] as const;

/**
 * Submit: the draft rules plus the fields a submit needs — customer first/last name, e-mail, phone and
 * federal tax id; home, billing and shipping addresses and the store address (the DBA address too unless
 * dbaAddressSameAsLegal); store DBA, name and phone; total sale price; the monthly plan entry and its payment
 * method (the hardware plan and method too for a POS order); and for a POS order (orderType P) at least one
 * terminal. Each missing field is reported at its path ('CustomerInfo.email', 'PaymentPlanInfo.1.paymentPlanId').
 */
export const orderForSubmit = orderDraft.superRefine((doc, ctx) => {
  const need = (path: (string | number)[], value: unknown, label: string) => {
    if (blank(value)) ctx.addIssue({ code: 'custom', path, message: `${label} is required.` });
  };
  const c = doc.CustomerInfo ?? {};
  need(['CustomerInfo', 'firstName'], c.firstName, 'First name');
  need(['CustomerInfo', 'lastName'], c.lastName, 'Last name');
  need(['CustomerInfo', 'email'], c.email, 'E-mail');
  need(['CustomerInfo', 'phone'], c.phone, 'Phone');
  need(['CustomerInfo', 'federalTaxId'], c.federalTaxId, 'Federal tax id');
  const address = (path: string[], a: OrderAddress | null | undefined) => {
    for (const f of ADDRESS_REQUIRED)
      need([...path, f], a?.[f], f === 'address1' ? 'Address' : f.charAt(0).toUpperCase() + f.slice(1));
  };
  address(['HomeAddress'], doc.HomeAddress);
  address(['BillingAddress'], doc.BillingAddress);
  address(['ShippingAddress'], doc.ShippingAddress);
  const s = doc.StoreInfo ?? {};
  need(['StoreInfo', 'doingBusinessAs'], s.doingBusinessAs, 'Doing business as');
  need(['StoreInfo', 'storeName'], s.storeName, 'Store name');
  need(['StoreInfo', 'phone'], s.phone, 'Store phone');
  address(['StoreInfo', 'StoreAddress'], s.StoreAddress);
  if (s.dbaAddressSameAsLegal === false) address(['StoreInfo', 'DbaAddress'], s.DbaAddress);
  need(['totalSalePrice'], doc.totalSalePrice, 'Total sale price');

  const pos = (doc.orderType ?? ORDER_DEFAULTS.orderType) === ORDER_TYPE.POS;
  const kinds = pos ? [PAYMENT_PLAN_KIND.HARDWARE, PAYMENT_PLAN_KIND.MONTHLY] : [PAYMENT_PLAN_KIND.MONTHLY];
  for (const kind of kinds) {
    const plans = doc.PaymentPlanInfo ?? [];
    const p = plans.findIndex((e) => e.type === kind);
    if (p < 0) ctx.addIssue({ code: 'custom', path: ['PaymentPlanInfo'], message: `The ${kind} entry is required.` });
    else need(['PaymentPlanInfo', p, 'paymentPlanId'], plans[p]!.paymentPlanId, `The ${kind}`);
    const methods = doc.PaymentInstrumentInfo ?? [];
    const m = methods.findIndex((e) => e.type === kind);
    if (m < 0)
      ctx.addIssue({
        code: 'custom',
        path: ['PaymentInstrumentInfo'],
        message: `The ${kind} payment method is required.`,
      });
    else
      need(
        ['PaymentInstrumentInfo', m, 'paymentMethodTypeId'],
        methods[m]!.paymentMethodTypeId,
        `The ${kind} payment method`,
      );
  }
  if (pos && (doc.noOfTerminals ?? 0) < 1) {
    ctx.addIssue({ code: 'custom', path: ['noOfTerminals'], message: 'A POS order needs at least one terminal.' });
  }
});

// ── The blank template ──────────────────────────────────────────────────────────────────────────────

const blankAddress = () => ({ address1: '', address2: '', city: '', state: '', zip: '', country: 'US' as const });

function planEntry(kind: string, hardware: boolean) {
  return {
    type: kind,
    paymentPlanId: null,
    hardwareSalePlan: hardware,
    monthlyPlan: !hardware,
    initialPaymentAmount: '0.00',
    recurringAmount: '0.00',
    term: 0,
    interval: 0,
    ...(hardware ? { planName: '', showTermsFlag: false, isDisable: false, additionalEquipmentAllowed: true } : {}),
  };
}

function instrumentEntry(kind: string, hardware: boolean) {
  return {
    type: kind,
    paymentMethodTypeId: null,
    paymentMethodCode: null,
    paymentDescription: null,
    paymentPlanId: null,
    nameOnAccount: null,
    creditCardNumber: null,
    expirationDate: null,
    issuer: null,
    achAccountNumber: null,
    achRoutingNumber: null,
    achBankName: null,
    achAccountType: null,
    achInstitutionNumber: null,
    processorSetupIntent: null,
    paymentProcessorReference: null,
    paymentMethodSet: false,
    ...(hardware ? { noofPOS: ORDER_DEFAULTS.noOfTerminals } : {}),
  };
}

/** The §3 blank order summary template with the spec defaults (a fresh object each call). */
export function blankOrder(): OrderDocument {
  return {
    orderInfoId: null,
    mobileConsent: ORDER_DEFAULTS.mobileConsent,
    orgId: null,
    orgName: null,
    salesRep: null,
    noOfTerminals: ORDER_DEFAULTS.noOfTerminals,
    skipContractRegeneration: false,
    flow: 'AR',
    billingCustomerId: null,
    orderDate: null,
    totalSalePrice: '0.00',
    byoe: 'N',
    orderType: ORDER_DEFAULTS.orderType,
    unifiedOrderId: null,
    preferredTrainingLanguage: null,
    CustomerInfo: {
      title: null,
      firstName: '',
      middleName: null,
      lastName: '',
      phone: '',
      email: '',
      brAcct: null,
      federalTaxId: '',
      ofaCustomerId: null,
      oasisId: null,
      paymentProcessorReference: null,
      businessType: null,
      customerCategory: ORDER_DEFAULTS.customerCategory,
      resaleCertificate: null,
      customerClass: ORDER_DEFAULTS.customerClass,
    },
    HomeAddress: blankAddress(),
    BillingAddress: blankAddress(),
    ShippingAddress: blankAddress(),
    StoreInfo: {
      doingBusinessAs: '',
      customerStoreId: null,
      storeName: '',
      phone: '',
      mobilePhone: null,
      kindOfBusiness: null,
      currentPos: null,
      squareFootage: null,
      numberOfItems: null,
      onlineSource: null,
      monthlyGrossSales: null,
      paperRollsPerWeek: null,
      inventoryDatabaseExists: ORDER_DEFAULTS.inventoryDatabaseExists,
      internetConnectionType: null,
      availablePorts: null,
      posPhysicalLocation: null,
      typeOfMachine: null,
      acceptsCreditCards: ORDER_DEFAULTS.acceptsCreditCards,
      creditCardProcessor: null,
      specialInstructions: null,
      dbaAddressSameAsLegal: ORDER_DEFAULTS.dbaAddressSameAsLegal,
      dbaSameAsLegal: ORDER_DEFAULTS.dbaSameAsLegal,
      StoreAddress: blankAddress(),
      DbaAddress: blankAddress(),
      GeocodedAddress: {
        lattitude: null,
        longitude: null,
        placeId: null,
        streetNumber: null,
        streetName: null,
        city: null,
        county: null,
        state: null,
        zip: null,
        zip4: null,
        country: null,
        singleLine: null,
      },
    },
    PromotionInfo: [],
    BillingItemInfo: [],
    NoteInfo: [],
    BundleInfo: [],
    additionalDiscount: '0.00',
    SaleRepChecklist: {},
    PaymentPlanInfo: [planEntry(PAYMENT_PLAN_KIND.HARDWARE, true), planEntry(PAYMENT_PLAN_KIND.MONTHLY, false)],
    PaymentInstrumentInfo: [
      instrumentEntry(PAYMENT_PLAN_KIND.HARDWARE, true),
      instrumentEntry(PAYMENT_PLAN_KIND.MONTHLY, false),
    ],
    PaymentInfo: { transactionTypeId: null, paymentProcessorReference: null },
    UserInfo: { name: '', email: '' },
    additionalInfo: { billingCustomerID: null, customerID: null, ofa_id: null, org_id: null },
  };
}

// ── Calls (decision 078) ────────────────────────────────────────────────────────────────────────────

const positiveInt = z.coerce.number().int().min(1).max(2_147_483_647);
const orderStatusCode = z.enum(ORDER_STATUS_CODES as [string, ...string[]]);

/** GET /api/customers/orderinfo/{token}: `id` or `unifiedid` → that order; neither → the caller's queue (paged). */
export const orderInfoQuery = paginationQuerySchema
  .extend({
    id: positiveInt.optional(),
    unifiedid: z.string().trim().min(1).max(64).optional(),
  })
  .refine((q) => !(q.id !== undefined && q.unifiedid !== undefined), {
    message: 'Give id or unifiedid, not both.',
    path: ['id'],
  });

/** One order as the order screens load it: the document plus status and version. */
export const orderInfoRecord = z.object({
  orderInfoId: z.number().int(),
  unifiedOrderId: z.string(),
  status: orderStatusCode,
  flow: z.string(),
  order_type: z.string(),
  sales_rep: z.string().nullable(),
  agent_id: z.number().int().nullable(),
  customer_id: z.number().int().nullable(),
  version: z.number().int(),
  updated_at: z.string(),
  json: z.record(z.string(), z.unknown()),
});
export type OrderInfoRecord = z.infer<typeof orderInfoRecord>;

/** A queue row (no document). */
export const orderQueueItem = orderInfoRecord.omit({ json: true }).extend({
  legal_name: z.string().nullable(),
  dba_name: z.string().nullable(),
  total_sale_price: z.string(),
  order_date: z.string(),
});
export const orderQueue = pagedList(orderQueueItem).extend({ status: orderStatusCode });

export const orderInfoResponse = z.union([z.object({ order: orderInfoRecord }), z.object({ queue: orderQueue })]);

export const orderInfoSaveParams = tokenParams.extend({
  orderInfoId: z.union([z.literal('new'), positiveInt]),
});

/** POST body: the document (draft rules; submit → submit rules, checked by the server), version for updates. */
export const orderInfoSaveRequest = z.object({
  json: z.record(z.string(), z.unknown()),
  version: z.number().int().min(1).optional(),
  submit: z.boolean().optional(),
});
export type OrderInfoSaveRequest = z.infer<typeof orderInfoSaveRequest>;

export const orderInfoSaveResult = z.object({
  orderInfoId: z.number().int(),
  unifiedOrderId: z.string(),
  status: orderStatusCode,
  version: z.number().int(),
});

/** GET /api/customers/orderinfo/pending/{token}?type=ar|ram&id= */
export const pendingOrdersQuery = z.object({
  type: z.enum(['ar', 'ram']),
  id: positiveInt.optional(),
});
export const pendingOrderItem = z.object({
  id: z.number().int(),
  unified_order_id: z.string(),
  status: orderStatusCode,
  sales_rep: z.string().nullable(),
  version: z.number().int(),
  data: z.string(),
});
export const pendingOrdersInfo = z.object({ orders: z.array(pendingOrderItem) });

export const errorTestParams = tokenParams;

// ── Existing-customer match (decision 142) ──────────────────────────────────────────────────────────────────

/**
 * An agent-scoped session's order whose federal tax id is an existing customer's that the session may not see is not
 * merged into that customer silently: it waits for a staff confirmation. pending → confirmed (onboarding attaches the
 * order to the customer) or rejected (onboarding makes a new customer).
 */
export const CUSTOMER_MATCH_STATUSES = ['pending', 'confirmed', 'rejected'] as const;
export type CustomerMatchStatus = (typeof CUSTOMER_MATCH_STATUSES)[number];

/** GET / POST /api/customers/orderinfo/{orderId}/customermatch/{token} */
export const customerMatchParams = tokenParams.extend({ orderId: positiveInt });

/** POST: the staff decision on the match; `customer_id` is the customer the decision is about (as read). */
export const customerMatchDecisionRequest = z.object({
  customer_id: z.number().int().min(1).max(2_147_483_647),
  decision: z.enum(['confirm', 'reject']),
});
export type CustomerMatchDecisionRequest = z.infer<typeof customerMatchDecisionRequest>;

export const customerMatchRecord = z.object({
  order_id: z.number().int(),
  status: z.enum(CUSTOMER_MATCH_STATUSES),
  /** The order's federal tax id that matched. */
  federal_tax_id: z.string(),
  /** The existing customer; null for an agent-scoped session (it may not see that customer). */
  customer: z
    .object({ customer_id: z.number().int(), legal_name: z.string(), email: z.string(), country: z.string() })
    .nullable(),
  flagged_at: z.string(),
  flagged_by_email: z.string(),
  decided_at: z.string().nullable(),
  decided_by_email: z.string().nullable(),
});
export type CustomerMatchRecord = z.infer<typeof customerMatchRecord>;

/** The order's match, or null when its order waits for none. */
export const customerMatchInfo = z.object({ match: customerMatchRecord.nullable() });
export type CustomerMatchInfo = z.infer<typeof customerMatchInfo>;
