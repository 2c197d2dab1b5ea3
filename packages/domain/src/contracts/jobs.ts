import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { ORDER_STATUS_CODES, type OrderStatusCode } from '../codes/order-status';
import { addressSchema, emailSchema, moneySchema } from './common';
import { uploadPublicId } from './uploads';

/*
 * Queue and notification calls (spec §7 "Notification and queue POSTs", plus the order "…/sns" calls).
 * Each one validates its body with the schema below, records what was asked (audit), enqueues a job in the same
 * transaction and answers 202 { info: { jobId } }. A worker does the work; GET /api/jobs/{jobId}/{token} shows it.
 *
 *   POST /api/customers/transactions/sns/{token}                    transactionsSnsRequest        (billing issue)
 *   POST /api/customers/retirecustomerterminals/sns/{token}         retireTerminalsSnsRequest
 *   POST /api/customers/customerpaymentplans/sns/{token}            paymentPlansSnsRequest
 *   POST /api/customers/customerpaymentplans/recurring/sns/{token}  recurringPlansSnsRequest
 *   POST /api/customers/invoices/collect/due/sns/{token}            invoicesCollectDueSnsRequest  (billing issue)
 *   POST /api/customers/paymentcollection/sns/{token}               paymentCollectionSnsRequest   (billing issue)
 *   POST /api/storeinfo/sns/{token}                                 storeInfoSnsRequest
 *   POST /api/customers/notifications/updatepayment/{token}         updatePaymentNotificationRequest {elmer_id}
 *   POST /api/customers/paymentinstruments/add/{token}              paymentInstrumentAddRequest   (billing issue)
 *   POST /api/pos/feature/modify/email/{token}                      featureChangeEmailRequest
 *   POST /api/customers/stores/{token}/{storeId}/pushlicense        pushLicenseRequest (empty body)
 *   POST /api/orderinfo/status/sns/{token}                          orderStatusSnsRequest
 *   POST /api/orderinfo/agentswitch/sns/{token}                     agentSwitchSnsRequest
 *   POST /api/zoho/accessoriesorder/{token}                         crmAccessoriesOrderRequest
 *   POST /api/zoho/storemidvalidate/{token}                         crmStoreMidValidateRequest {MID}
 *   GET  /api/jobs/{jobId}/{token}                                  → jobStatusInfo (staff only)
 */

/** The queue behind each call (pg-boss queue names; the dead-letter queue of `q` is `q__dead`). */
export const JOB_QUEUE = {
  transactions: 'customer-transactions',
  retireTerminals: 'retire-terminals',
  paymentPlans: 'payment-plans',
  recurringPlans: 'payment-plans-recurring',
  invoicesCollectDue: 'invoices-collect-due',
  paymentCollection: 'payment-collection',
  storeInfo: 'store-info',
  updatePaymentNotification: 'notify-update-payment',
  paymentInstrumentAdd: 'payment-instrument-add',
  featureChangeEmail: 'feature-change-email',
  pushLicense: 'push-license',
  orderStatus: 'order-status',
  agentSwitch: 'order-agent-switch',
  crmAccessoriesOrder: 'crm-accessories-order',
  crmStoreMidValidate: 'crm-store-mid-validate',
  /** Not a spec call: one charge of one invoice (auto-pay, dunning retries, collection; decision 116). */
  invoiceCharge: 'invoice-charge',
  /**
   * Not a spec call: the distributor "forgot password" e-mail, off the request path (the request only enqueues it,
   * known e-mail or not; decision 141).
   */
  distributorPasswordReset: 'distributor-password-reset',
} as const;
export type JobQueueKey = keyof typeof JOB_QUEUE;
export type JobQueueName = (typeof JOB_QUEUE)[JobQueueKey];
export const JOB_QUEUE_NAMES = Object.values(JOB_QUEUE) as readonly JobQueueName[];

export const JOB_QUEUE_LABELS: Readonly<Record<JobQueueName, string>> = {
  'customer-transactions': 'Transactions',
  'retire-terminals': 'Retire terminals',
  'payment-plans': 'Payment plan changes',
  'payment-plans-recurring': 'Recurring amount changes',
  'invoices-collect-due': 'Collect due invoices',
  'payment-collection': 'Payment collection',
  'store-info': 'Store information',
  'notify-update-payment': 'Payment-method update link',
  'payment-instrument-add': 'Add payment method',
  'feature-change-email': 'Feature-change confirmation',
  'push-license': 'Push license to terminals',
  'order-status': 'Order status change',
  'order-agent-switch': 'Order agent switch',
  'crm-accessories-order': 'CRM feature-change request',
  'crm-store-mid-validate': 'CRM MID validation',
  'invoice-charge': 'Invoice charge',
  'distributor-password-reset': 'Distributor password-reset e-mail',
};

/**
 * Housekeeping the server runs on a schedule (pg-boss cron). Not one of the spec's calls: no HTTP call enqueues
 * them and nobody passes them input; named here so the job monitor can label them.
 */
export const SCHEDULED_JOB_QUEUE = {
  /** Delete Idempotency-Keys past their 24 h (decision 104). */
  idempotencyKeysExpire: 'idempotency-keys-expire',
  /** The daily billing run, and the runs staff start with "Run now" (decision 113). */
  billingRun: 'billing-run',
  /** Every 10 minutes: reconcile pending charges, bank returns, dunning retries, auto-pay (decision 116). */
  paymentsSweep: 'payments-sweep',
  /** Every 15 minutes: fold the report facts' appended rows, one per key (decision 137). */
  reportFactsCompact: 'report-facts-compact',
  /** Daily: yesterday's gateway books beside ours, per currency (decision 146). */
  gatewayReconciliation: 'gateway-reconciliation',
} as const;
export type ScheduledJobQueueName = (typeof SCHEDULED_JOB_QUEUE)[keyof typeof SCHEDULED_JOB_QUEUE];

export const SCHEDULED_JOB_QUEUE_LABELS: Readonly<Record<ScheduledJobQueueName, string>> = {
  'idempotency-keys-expire': 'Expired idempotency keys clean-up',
  'billing-run': 'Billing run',
  'payments-sweep': 'Payments: reconcile, retries, auto-pay',
  'report-facts-compact': 'Report facts compaction',
  'gateway-reconciliation': 'Reconciliation with the gateway',
};

// ── Shared field schemas ──────────────────────────────────────────────────────────────────────────

const MAX_ID = 2_147_483_647;
/** A database id (positive int4). */
export const recordIdSchema = z.number().int().positive().max(MAX_ID);
const isoDate = z.iso.date({ message: 'Enter a date as YYYY-MM-DD.' });
/** A terminal id (§3 elmer_id). */
export const elmerIdSchema = z.string().trim().min(1, { message: 'Enter the terminal id (elmer_id).' }).max(40);

function uniqueList<T extends z.ZodType>(item: T, what: string, max: number) {
  return z
    .array(item)
    .min(1, { message: `Name at least one ${what}.` })
    .max(max, { message: `At most ${max} ${what}s per request.` })
    .refine((list) => new Set(list.map((v) => JSON.stringify(v))).size === list.length, {
      message: `Each ${what} may appear once.`,
    });
}

// ── Customers: terminals, plans, stores ───────────────────────────────────────────────────────────

/** Retire terminals (all of one customer) with a retire reason from GET /api/domaindata?type=retire_reason. */
export const retireTerminalsSnsRequest = z.object({
  elmer_ids: uniqueList(elmerIdSchema, 'terminal', 100),
  /** domain_data id of type 'retire_reason'. */
  reason_id: recordIdSchema,
  note: z.string().trim().max(500).optional(),
});
export type RetireTerminalsSnsRequest = z.infer<typeof retireTerminalsSnsRequest>;

/** Payment plan statuses (customer_payment_plans.status). */
export const PAYMENT_PLAN_STATUSES = ['active', 'canceled', 'completed'] as const;
export type PaymentPlanStatus = (typeof PAYMENT_PLAN_STATUSES)[number];

const planChange = z
  .object({
    customerplanid: recordIdSchema,
    /** New license expiry of the plan (a service plan also moves its store's license expiry). */
    licenseExpiresOn: isoDate.optional(),
    nextBillingOn: isoDate.optional(),
    status: z.enum(PAYMENT_PLAN_STATUSES).optional(),
  })
  .refine((c) => c.licenseExpiresOn !== undefined || c.nextBillingOn !== undefined || c.status !== undefined, {
    message: 'Say what changes: licenseExpiresOn, nextBillingOn or status.',
  });

/** Apply plan changes: license expiry, next billing date, status. */
export const paymentPlansSnsRequest = z.object({
  plans: z
    .array(planChange)
    .min(1, { message: 'Name at least one plan.' })
    .max(100, { message: 'At most 100 plans per request.' })
    .refine((list) => new Set(list.map((p) => p.customerplanid)).size === list.length, {
      message: 'Each plan may appear once.',
    }),
});
export type PaymentPlansSnsRequest = z.infer<typeof paymentPlansSnsRequest>;

/** Change recurring amounts (integer cents in the plan's own currency). */
export const recurringPlansSnsRequest = z.object({
  plans: z
    .array(
      z.object({
        customerplanid: recordIdSchema,
        recurringAmount: moneySchema.refine((m) => m.cents >= 0, {
          message: 'A recurring amount cannot be negative.',
          path: ['cents'],
        }),
      }),
    )
    .min(1, { message: 'Name at least one plan.' })
    .max(100, { message: 'At most 100 plans per request.' })
    .refine((list) => new Set(list.map((p) => p.customerplanid)).size === list.length, {
      message: 'Each plan may appear once.',
    }),
});
export type RecurringPlansSnsRequest = z.infer<typeof recurringPlansSnsRequest>;

const optionalText = (max: number) => z.string().trim().min(1).max(max).optional();

/**
 * Store-info update (§3 StoreInfo names) with the store's version (optimistic concurrency: a stale version → 409
 * at once, and the worker checks it again when it applies the change). The store's country cannot change.
 */
export const storeInfoSnsRequest = z.object({
  storeid: recordIdSchema,
  version: z.number().int().min(1),
  changes: z
    .object({
      storeName: optionalText(200),
      doingBusinessAs: optionalText(200),
      phone: optionalText(40),
      mobilePhone: z.string().trim().max(40).nullable().optional(),
      kindOfBusiness: z.string().trim().max(100).nullable().optional(),
      salesRep: z.string().trim().max(200).nullable().optional(),
      StoreAddress: addressSchema.optional(),
      DbaAddress: addressSchema.nullable().optional(),
    })
    .refine((c) => Object.values(c).some((v) => v !== undefined), { message: 'Say what changes.' }),
});
export type StoreInfoSnsRequest = z.infer<typeof storeInfoSnsRequest>;

/** Push the store's license state to its terminals: the body is empty (`{}` or none). */
export const pushLicenseRequest = z.strictObject({}, { message: 'This call takes no body.' }).nullish();
export const pushLicenseParams = z.object({
  token: z.string(),
  storeId: z.coerce.number().int().positive().max(MAX_ID),
});

// ── Notifications ─────────────────────────────────────────────────────────────────────────────────

/** E-mail the merchant of the terminal's store a link to update the payment method (valid 7 days). */
export const updatePaymentNotificationRequest = z.object({ elmer_id: elmerIdSchema });
export type UpdatePaymentNotificationRequest = z.infer<typeof updatePaymentNotificationRequest>;

export const FEATURE_CHANGE_ACTIONS = ['add', 'remove'] as const;

/** E-mail the feature-change confirmation (features are billing items with feature = 'Y'). */
export const featureChangeEmailRequest = z.object({
  storeid: recordIdSchema,
  features: z
    .array(z.object({ billingitemid: recordIdSchema, action: z.enum(FEATURE_CHANGE_ACTIONS) }))
    .min(1, { message: 'Name at least one feature.' })
    .max(50)
    .refine((list) => new Set(list.map((f) => f.billingitemid)).size === list.length, {
      message: 'Each feature may appear once.',
    }),
  /** Default: the store's owner/primary e-mail, else the customer's. */
  email: emailSchema.optional(),
  effectiveOn: isoDate.optional(),
  reference: z.string().trim().max(100).optional(),
});
export type FeatureChangeEmailRequest = z.infer<typeof featureChangeEmailRequest>;

// ── Orders ────────────────────────────────────────────────────────────────────────────────────────

/**
 * "The order status object plus action". Any §4 status code is accepted for now; the transition table arrives
 * with the orders issue. `action` names what the person did ('approve', 'reject', 'submit', …).
 */
export const orderStatusSnsRequest = z.object({
  orderInfoId: recordIdSchema,
  status: z.enum(ORDER_STATUS_CODES as [OrderStatusCode, ...OrderStatusCode[]], {
    message: 'Choose an order status code of spec §4.',
  }),
  action: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_ -]{0,39}$/, { message: 'The action is a short word (letters, digits, _ or -).' }),
  statusReasonId: recordIdSchema.optional(),
  note: z.string().trim().min(1).max(4000).optional(),
});
export type OrderStatusSnsRequest = z.infer<typeof orderStatusSnsRequest>;

/** Move orders to another agent (orders.agent_id and agent_orders). */
export const agentSwitchSnsRequest = z.object({
  orderInfoIds: uniqueList(recordIdSchema, 'order', 100),
  agent_id: recordIdSchema,
});
export type AgentSwitchSnsRequest = z.infer<typeof agentSwitchSnsRequest>;

/**
 * What a completed agent switch answers: the agent and the orders it now has (every order asked for — the job moves
 * all of them or, failing, none).
 */
export const agentSwitchOutput = z.object({ agentId: z.number().int(), orders: z.array(z.number().int()) });
export type AgentSwitchOutput = z.infer<typeof agentSwitchOutput>;

// ── CRM (Zoho) ────────────────────────────────────────────────────────────────────────────────────

/** A feature-change (accessories) request to the CRM for a store. */
export const crmAccessoriesOrderRequest = z.object({
  storeid: recordIdSchema,
  features: uniqueList(z.string().trim().min(1).max(100), 'feature', 50),
  notes: z.string().trim().max(2000).optional(),
});
export type CrmAccessoriesOrderRequest = z.infer<typeof crmAccessoriesOrderRequest>;

/** Ask the CRM whether a MID is valid; the job's output holds the answer ({valid, reason?}). */
export const crmStoreMidValidateRequest = z.object({
  MID: z.string().trim().min(1, { message: 'Enter the MID.' }).max(40),
  /** The store being edited (its own MID is not a duplicate). */
  storeid: recordIdSchema.optional(),
});
export type CrmStoreMidValidateRequest = z.infer<typeof crmStoreMidValidateRequest>;

/** The output of a completed MID validation job. */
export const crmStoreMidValidateOutput = z.object({
  MID: z.string(),
  valid: z.boolean(),
  reason: z.string().optional(),
});

// ── Billing (the effect arrives with the billing issue; the contract and queue exist now) ─────────

/**
 * What the failed-payments screen and the transactions tab ask of transactions (decision 116): reprocess (retry a
 * failed charge now), void (a pending charge), refund (a settled charge, in full), waive_fee (the failed-payment
 * fee of its invoice), send_update_link (e-mail the merchant the update-payment link), stop_retries (end dunning).
 */
export const TRANSACTION_SNS_ACTIONS = [
  'reprocess',
  'void',
  'refund',
  'waive_fee',
  'send_update_link',
  'stop_retries',
] as const;
export type TransactionSnsAction = (typeof TRANSACTION_SNS_ACTIONS)[number];

export const transactionsSnsRequest = z.object({
  customer_id: recordIdSchema,
  transaction_ids: uniqueList(recordIdSchema, 'transaction', 100),
  action: z.enum(TRANSACTION_SNS_ACTIONS),
});
export type TransactionsSnsRequest = z.infer<typeof transactionsSnsRequest>;

export const invoicesCollectDueSnsRequest = z.object({
  customer_id: recordIdSchema,
  storeid: recordIdSchema.optional(),
  /** Default: every due invoice of the customer (or store). */
  invoice_ids: uniqueList(recordIdSchema, 'invoice', 200).optional(),
});
export type InvoicesCollectDueSnsRequest = z.infer<typeof invoicesCollectDueSnsRequest>;

export const paymentCollectionSnsRequest = z.object({
  customer_id: recordIdSchema,
  invoice_ids: uniqueList(recordIdSchema, 'invoice', 200),
  payment_instrument_id: recordIdSchema.optional(),
  amount: moneySchema
    .refine((m) => m.cents > 0, { message: 'Enter an amount above zero.', path: ['cents'] })
    .optional(),
});
export type PaymentCollectionSnsRequest = z.infer<typeof paymentCollectionSnsRequest>;

const NO_CARD_DATA =
  'Card numbers never reach this server: tokenize the card with the payment gateway and send its reference.';
const NO_ACCOUNT_NUMBER =
  'Bank account numbers are not sent through the job queue: upload the check image and send its upload_id.';

/**
 * Add a payment method. Card: the gateway's reference (setup intent or processor reference) — never the number.
 * Bank: the uploaded check/ACH image (upload_id) and bank name; the account number is never put in a job.
 */
export const paymentInstrumentAddRequest = z
  .object({
    customer_id: recordIdSchema,
    storeid: recordIdSchema.optional(),
    kind: z.enum(['card', 'bank']),
    nameOnAccount: z.string().trim().min(1).max(200).optional(),
    processorSetupIntent: z.string().trim().min(1).max(200).optional(),
    paymentProcessorReference: z.string().trim().min(1).max(200).optional(),
    /** The check/ACH image's public id: an upload of the caller's own, not attached to anything. */
    upload_id: uploadPublicId.optional(),
    achBankName: z.string().trim().min(1).max(200).optional(),
    currency: z.enum(CURRENCY_CODES).optional(),
    makeDefault: z.boolean().optional(),
    creditCardNumber: z.never({ message: NO_CARD_DATA }).optional(),
    achAccountNumber: z.never({ message: NO_ACCOUNT_NUMBER }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'card' && !v.processorSetupIntent && !v.paymentProcessorReference) {
      ctx.addIssue({
        code: 'custom',
        path: ['paymentProcessorReference'],
        message: 'A card needs the gateway reference (processorSetupIntent or paymentProcessorReference).',
      });
    }
    if (v.kind === 'bank' && v.upload_id === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['upload_id'],
        message: 'A bank account needs the uploaded check or ACH image (upload_id).',
      });
    }
  });
export type PaymentInstrumentAddRequest = z.infer<typeof paymentInstrumentAddRequest>;

/** The input of an 'invoice-charge' job. */
export const INVOICE_CHARGE_SOURCES = ['autopay', 'retry', 'collection', 'instrument_added'] as const;
export const invoiceChargeJobInput = z.object({
  invoice_id: recordIdSchema,
  /** Names the attempt ('autopay', 'retry-2', …): part of the charge's idempotency key. */
  attempt: z.string().min(1).max(80),
  source: z.enum(INVOICE_CHARGE_SOURCES),
});
export type InvoiceChargeJobInput = z.infer<typeof invoiceChargeJobInput>;

// ── Answers ───────────────────────────────────────────────────────────────────────────────────────

/** 202 { info: { jobId } } */
export const jobAcceptedInfo = z.object({ jobId: z.string() });
export type JobAcceptedInfo = z.infer<typeof jobAcceptedInfo>;

/** pg-boss job states. 'retry': failed, waiting for its next attempt; 'failed': out of retries (dead-lettered). */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const jobStatusParams = z.object({ jobId: z.uuid({ message: 'A job id is a UUID.' }), token: z.string() });

export const jobStatusInfo = z.object({
  id: z.string(),
  queue: z.string(),
  state: z.enum(JOB_STATES),
  /** Attempts after the first. */
  retryCount: z.number().int(),
  retryLimit: z.number().int(),
  createdOn: z.string(),
  startedOn: z.string().nullable(),
  completedOn: z.string().nullable(),
  /** What a completed job answered (e.g. a MID validation), else null. */
  output: z.unknown().nullable(),
  /** Why the last attempt failed (state 'retry' or 'failed'), else null. */
  error: z.string().nullable(),
  /** Set when the job ran out of retries: the queue that holds its copy. */
  deadLetterQueue: z.string().nullable(),
});
export type JobStatusInfo = z.infer<typeof jobStatusInfo>;
