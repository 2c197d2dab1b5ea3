export { accountingRoutes, ACCOUNTING_GUARD } from './accounting.routes';
export { tieOuts, trialBalance } from './accounting.service';
