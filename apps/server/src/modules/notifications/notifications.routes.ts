import {
  agentSwitchSnsRequest,
  crmAccessoriesOrderRequest,
  crmStoreMidValidateRequest,
  featureChangeEmailRequest,
  idempotencyHeaders,
  invoicesCollectDueSnsRequest,
  jobAcceptedInfo,
  orderStatusSnsRequest,
  paymentCollectionSnsRequest,
  paymentInstrumentAddRequest,
  paymentPlansSnsRequest,
  pushLicenseParams,
  pushLicenseRequest,
  recurringPlansSnsRequest,
  retireTerminalsSnsRequest,
  storeInfoSnsRequest,
  successEnvelope,
  transactionsSnsRequest,
  updatePaymentNotificationRequest,
  type JobAcceptedInfo,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceCtx } from '../../context';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  addPaymentInstrument,
  applyPaymentPlanChanges,
  changeOrderStatus,
  changeRecurringAmounts,
  collectDueInvoices,
  collectPayment,
  processTransactions,
  pushLicense,
  requestCrmFeatureChange,
  retireTerminals,
  sendFeatureChangeEmail,
  sendPaymentUpdateLink,
  switchOrderAgent,
  updateStoreInfo,
  validateStoreMid,
} from './notifications.service';

/**
 * Who may make each queue call (any one privilege passes, spec §6). Edits of customer records need
 * customer_details_edit (view-only is refused); collection needs collect_payment or failed_payments_edit;
 * feature e-mails and CRM feature requests need customer_features_edit or customer_features_limited; order
 * changes need search_orders_edit.
 */
export const QUEUE_CALL_GUARDS = {
  transactions: ['failed_payments_edit', 'collect_payment'],
  retireTerminals: ['customer_details_edit'],
  paymentPlans: ['customer_details_edit'],
  recurringPlans: ['customer_details_edit'],
  invoicesCollectDue: ['collect_payment', 'failed_payments_edit'],
  paymentCollection: ['collect_payment', 'failed_payments_edit'],
  storeInfo: ['customer_details_edit'],
  updatePaymentNotification: ['customer_details_edit', 'failed_payments_edit', 'collect_payment'],
  paymentInstrumentAdd: ['customer_details_edit', 'failed_payments_edit', 'collect_payment'],
  featureChangeEmail: ['customer_features_edit', 'customer_features_limited'],
  pushLicense: ['customer_details_edit', 'customer_features_edit', 'customer_features_limited'],
  orderStatus: ['search_orders_edit'],
  agentSwitch: ['search_orders_edit'],
  crmAccessoriesOrder: ['customer_features_edit', 'customer_features_limited'],
  crmStoreMidValidate: ['customer_details_edit', 'search_orders_edit'],
} as const satisfies Record<string, readonly Permission[]>;

const tokenParams = z.object({ token: z.string() });
const accepted = { 202: successEnvelope(jobAcceptedInfo) };

/** Spec §7 "Notification and queue POSTs" and the order "…/sns" calls: validate, record, enqueue, 202 {info:{jobId}}. */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  /** One queue call: POST `url` guarded by `guard`, body validated by `body`, answered 202 with the job id. */
  function queueCall<B extends z.ZodType>(
    url: string,
    opts: { tags: string[]; summary: string; guard: readonly Permission[]; body: B; idempotent?: boolean },
    accept: (ctx: ServiceCtx, body: z.output<B>, idempotencyKey?: string) => Promise<JobAcceptedInfo>,
  ) {
    app.post(
      url,
      {
        onRequest: requireSession({ anyOf: opts.guard }),
        schema: {
          tags: opts.tags,
          summary: `${opts.summary} (202 with the job id; needs ${opts.guard.join(' or ')})`,
          params: tokenParams,
          ...(opts.idempotent ? { headers: idempotencyHeaders } : {}),
          body: opts.body,
          response: accepted,
        },
      },
      async (request, reply) =>
        reply.code(202).send({
          info: await accept(
            serviceCtx(request),
            request.body as z.output<B>,
            opts.idempotent ? (request.headers['idempotency-key'] as string | undefined) : undefined,
          ),
        }),
    );
  }

  const customers = ['customers', 'jobs'];
  queueCall(
    '/api/customers/transactions/sns/:token',
    {
      tags: customers,
      summary: 'Reprocess, void or refund transactions',
      guard: QUEUE_CALL_GUARDS.transactions,
      body: transactionsSnsRequest,
    },
    processTransactions,
  );
  queueCall(
    '/api/customers/retirecustomerterminals/sns/:token',
    {
      tags: customers,
      summary: 'Retire terminals with a reason',
      guard: QUEUE_CALL_GUARDS.retireTerminals,
      body: retireTerminalsSnsRequest,
    },
    retireTerminals,
  );
  queueCall(
    '/api/customers/customerpaymentplans/sns/:token',
    {
      tags: customers,
      summary: 'Apply payment plan changes (license expiry, next billing, status)',
      guard: QUEUE_CALL_GUARDS.paymentPlans,
      body: paymentPlansSnsRequest,
    },
    applyPaymentPlanChanges,
  );
  queueCall(
    '/api/customers/customerpaymentplans/recurring/sns/:token',
    {
      tags: customers,
      summary: 'Change recurring amounts of payment plans',
      guard: QUEUE_CALL_GUARDS.recurringPlans,
      body: recurringPlansSnsRequest,
    },
    changeRecurringAmounts,
  );
  queueCall(
    '/api/customers/invoices/collect/due/sns/:token',
    {
      tags: customers,
      summary: 'Collect due invoices',
      guard: QUEUE_CALL_GUARDS.invoicesCollectDue,
      body: invoicesCollectDueSnsRequest,
    },
    collectDueInvoices,
  );
  queueCall(
    '/api/customers/paymentcollection/sns/:token',
    {
      tags: customers,
      summary: 'Collect a payment (Idempotency-Key: the same key answers the same job)',
      guard: QUEUE_CALL_GUARDS.paymentCollection,
      body: paymentCollectionSnsRequest,
      idempotent: true,
    },
    collectPayment,
  );
  queueCall(
    '/api/storeinfo/sns/:token',
    {
      tags: customers,
      summary: 'Update store information (with the store version)',
      guard: QUEUE_CALL_GUARDS.storeInfo,
      body: storeInfoSnsRequest,
    },
    updateStoreInfo,
  );
  queueCall(
    '/api/customers/notifications/updatepayment/:token',
    {
      tags: customers,
      summary: 'E-mail the merchant a link to update the payment method',
      guard: QUEUE_CALL_GUARDS.updatePaymentNotification,
      body: updatePaymentNotificationRequest,
    },
    sendPaymentUpdateLink,
  );
  queueCall(
    '/api/customers/paymentinstruments/add/:token',
    {
      tags: customers,
      summary: 'Add a payment method',
      guard: QUEUE_CALL_GUARDS.paymentInstrumentAdd,
      body: paymentInstrumentAddRequest,
    },
    addPaymentInstrument,
  );
  queueCall(
    '/api/pos/feature/modify/email/:token',
    {
      tags: customers,
      summary: 'E-mail the feature-change confirmation',
      guard: QUEUE_CALL_GUARDS.featureChangeEmail,
      body: featureChangeEmailRequest,
    },
    sendFeatureChangeEmail,
  );

  app.post(
    '/api/customers/stores/:token/:storeId/pushlicense',
    {
      onRequest: requireSession({ anyOf: QUEUE_CALL_GUARDS.pushLicense }),
      schema: {
        tags: customers,
        summary: `Publish the store's license state to its terminals (empty body; 202 with the job id; needs ${QUEUE_CALL_GUARDS.pushLicense.join(' or ')})`,
        params: pushLicenseParams,
        body: pushLicenseRequest,
        response: accepted,
      },
    },
    async (request, reply) =>
      reply.code(202).send({ info: await pushLicense(serviceCtx(request), request.params.storeId) }),
  );

  const orders = ['orders', 'jobs'];
  queueCall(
    '/api/orderinfo/status/sns/:token',
    {
      tags: orders,
      summary: 'Change an order status (status object plus action)',
      guard: QUEUE_CALL_GUARDS.orderStatus,
      body: orderStatusSnsRequest,
    },
    changeOrderStatus,
  );
  queueCall(
    '/api/orderinfo/agentswitch/sns/:token',
    {
      tags: orders,
      summary: 'Move orders to another agent (Idempotency-Key: the same key answers the same job)',
      guard: QUEUE_CALL_GUARDS.agentSwitch,
      body: agentSwitchSnsRequest,
      idempotent: true,
    },
    switchOrderAgent,
  );

  const crm = ['crm', 'jobs'];
  queueCall(
    '/api/zoho/accessoriesorder/:token',
    {
      tags: crm,
      summary: 'CRM feature-change request',
      guard: QUEUE_CALL_GUARDS.crmAccessoriesOrder,
      body: crmAccessoriesOrderRequest,
    },
    requestCrmFeatureChange,
  );
  queueCall(
    '/api/zoho/storemidvalidate/:token',
    {
      tags: crm,
      summary: 'Validate a MID with the CRM (the answer is the job output)',
      guard: QUEUE_CALL_GUARDS.crmStoreMidValidate,
      body: crmStoreMidValidateRequest,
    },
    validateStoreMid,
  );
};
