import type { AppConfig } from './config';
import type { Database, Db } from './db/client';
import type { AuditActor } from './http/audit';
import type { SessionContext } from './http/session-store';
import { createCrm, type CrmPort } from './integrations/crm';
import { createGateway, type PaymentGateway } from './integrations/gateway';
import { createIdentityProvider, type IdentityProvider } from './integrations/identity';
import { createMail } from './integrations/mail';
import type { MailPort } from './integrations/mail/mail.port';
import { createStorage, type StoragePort } from './integrations/storage';
import { JobQueue } from './jobs/queue';
import { systemClock, type Clock } from './lib/clock';
import { SignInThrottle } from './lib/sign-in-throttle';

/**
 * What the server has once per process: the database, the clock, the configuration, the integrations, the job queue.
 * Declared here, below the modules, so that a module never imports `app.ts` (which imports every module). The HTTP
 * app (`app.ctx`) and the worker process (worker.ts) make it the same way (`createAppContext`).
 */
export interface AppContext {
  config: AppConfig;
  database: Database;
  clock: Clock;
  identity: IdentityProvider;
  mail: MailPort;
  crm: CrmPort;
  storage: StoragePort;
  /** The payment gateway (tokens, authorizations, charges, gateway customers): local or HTTP by config. */
  gateway: PaymentGateway;
  /** Job queue (pg-boss on the product database): enqueue on the open transaction; workers in jobs/registry.ts. */
  queue: JobQueue;
  /** The distributor sign-in throttle's counts (in memory, this process; decision 141). */
  signInThrottle: SignInThrottle;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export interface AppContextOptions {
  config: AppConfig;
  database: Database;
  clock?: Clock;
  /** Outbound mail; default the local Mailbox (mail_log), or SMTP when SMTP_URL is set. */
  mail?: MailPort;
  /** The CRM (Zoho calls); default by CRM_URL: the HTTP bridge, else the local adapter. */
  crm?: CrmPort;
  /** Upload storage; default by S3_*: an S3-compatible bucket, else DATA_DIR/uploads. */
  storage?: StoragePort;
  /** The payment gateway; default by PAYMENT_GATEWAY_URL: the HTTP gateway, else the local one. */
  gateway?: PaymentGateway;
  /** The job queue; default pg-boss on `database` (started on first use). */
  queue?: JobQueue;
}

/** The process's context: what the options give, the rest picked from the configuration. */
export async function createAppContext(options: AppContextOptions): Promise<AppContext> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  return {
    config,
    database,
    clock,
    identity: await createIdentityProvider(config, clock),
    mail: options.mail ?? createMail(config, database, clock),
    crm: options.crm ?? createCrm(config, { database, clock }),
    storage: options.storage ?? createStorage(config),
    gateway: options.gateway ?? createGateway(config, clock, database),
    queue: options.queue ?? new JobQueue(database),
    signInThrottle: new SignInThrottle(),
  };
}

/**
 * What every service function takes first: the process's context and who is calling. `S` says whether a signed-in
 * session is known: `ServiceCtx` (the default) for the guarded routes, `ServiceCtx<null>` for public calls (sign-in,
 * the merchant's link pages), `AnyServiceCtx` for work done for either or for a worker (contracts, onboarding).
 * Built by `serviceCtx(request)` / `publicCtx(request)` (http/service-context.ts) or `systemCtx` (workers).
 */
export interface ServiceCtx<S extends SessionContext | null = SessionContext> {
  app: AppContext;
  /** The signed-in session (privileges captured at sign-in, agent scope), or null. */
  session: S;
  /** Who the audit trail names: the session's person, the merchant of a link, a job, or anonymous. */
  actor: AuditActor;
  /** The request's id, or the job's for a worker: audit entries carry it. */
  requestId: string;
  /** The caller's address and user agent (null outside an HTTP request). */
  ip: string | null;
  userAgent: string | null;
}

export type AnyServiceCtx = ServiceCtx<SessionContext | null>;

/** The context of work nobody signed in for: a worker's job (actor 'system'), acting for `actor`. */
export function systemCtx(app: AppContext, actor: AuditActor, requestId: string): ServiceCtx<null> {
  return { app, session: null, actor, requestId, ip: null, userAgent: null };
}

/**
 * Run `fn` in one transaction of the app's database. `tx` is a `Db` (the database and a transaction share drizzle's
 * `PgDatabase` type), so it goes wherever a `Db` is taken: helpers, `writeAudit`, `enqueueJob`.
 */
export function withTx<T>(ctx: { app: Pick<AppContext, 'database'> }, fn: (tx: Db) => Promise<T>): Promise<T> {
  return ctx.app.database.db.transaction((tx) => fn(tx));
}
