import type {
  AgentSwitchSnsRequest,
  CrmAccessoriesOrderRequest,
  CrmStoreMidValidateRequest,
  FeatureChangeEmailRequest,
  InvoiceChargeJobInput,
  InvoicesCollectDueSnsRequest,
  JobQueueName,
  OrderStatusSnsRequest,
  PaymentCollectionSnsRequest,
  PaymentInstrumentAddRequest,
  PaymentPlansSnsRequest,
  RecurringPlansSnsRequest,
  RetireTerminalsSnsRequest,
  StoreInfoSnsRequest,
  TransactionsSnsRequest,
  UpdatePaymentNotificationRequest,
} from '@pos/domain';
import type { AppContext } from '../context';
import type { AuditActor } from '../http/audit';

/** The validated body of each queue's call. */
export interface JobInputs {
  'customer-transactions': TransactionsSnsRequest;
  'retire-terminals': RetireTerminalsSnsRequest;
  'payment-plans': PaymentPlansSnsRequest;
  'payment-plans-recurring': RecurringPlansSnsRequest;
  'invoices-collect-due': InvoicesCollectDueSnsRequest;
  'payment-collection': PaymentCollectionSnsRequest;
  'store-info': StoreInfoSnsRequest;
  'notify-update-payment': UpdatePaymentNotificationRequest;
  'payment-instrument-add': PaymentInstrumentAddRequest;
  /** `feature_change_id` (set by the server only, never by the public call): the e-mail carries the merchant's link
   * to accept that prepared change (decision 123). */
  'feature-change-email': FeatureChangeEmailRequest & { feature_change_id?: number };
  /** Push license: the store comes from the path. */
  'push-license': { storeId: number };
  'order-status': OrderStatusSnsRequest;
  'order-agent-switch': AgentSwitchSnsRequest;
  'crm-accessories-order': CrmAccessoriesOrderRequest;
  'crm-store-mid-validate': CrmStoreMidValidateRequest;
  'invoice-charge': InvoiceChargeJobInput;
  /** The e-mail as typed on the "forgot password" page (normalized); whether an account has it is the worker's look. */
  'distributor-password-reset': { email: string };
}

/** A job's data: what was asked, by whom, from which request. */
export interface JobRequest<Q extends JobQueueName = JobQueueName> {
  input: JobInputs[Q];
  requestedBy: AuditActor;
  /** The HTTP request that enqueued it (its audit entry carries the same id). */
  requestId: string | null;
}

export interface JobRef {
  id: string;
  queue: JobQueueName;
}

/** One queue's worker: does the work and returns the job's output (kept by pg-boss, shown by GET /api/jobs). */
export interface WorkerDefinition<Q extends JobQueueName> {
  queue: Q;
  run(ctx: AppContext, request: JobRequest<Q>, job: JobRef): Promise<object>;
}

/** Who asked, for a worker's audit entries and e-mails ('system' when nobody is known). */
export function requesterEmail(request: JobRequest): string {
  return request.requestedBy.actorEmail ?? 'system';
}
