import type { AppConfig } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { CrmPort } from './crm.port';
import { createHttpCrm } from './http-crm';
import { createLocalCrm } from './local-crm';

export * from './crm.port';

/** The CRM adapter CRM_URL names: the HTTP bridge when set, else the local adapter. */
export function createCrm(config: AppConfig, deps: { database: Database; clock: Clock }): CrmPort {
  const { url } = config.crm;
  return url ? createHttpCrm({ ...config.crm, url }) : createLocalCrm(deps);
}
