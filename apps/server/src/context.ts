import type { AppConfig } from './config';
import type { Database } from './db/client';
import type { CrmPort } from './integrations/crm';
import type { PaymentGateway } from './integrations/gateway/gateway.port';
import type { IdentityProvider } from './integrations/identity';
import type { MailPort } from './integrations/mail/mail.port';
import type { StoragePort } from './integrations/storage';
import type { JobQueue } from './jobs/queue';
import type { Clock } from './lib/clock';

/**
 * What every module's routes and services get: the database, the clock, the configuration, the integrations.
 * Declared here, below the modules, so that a module never imports `app.ts` (which imports every module).
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
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
