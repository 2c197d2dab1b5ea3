export { reconciliationRoutes, RECONCILIATION_ROLES } from './reconciliation.routes';
export { runScheduledReconciliation, reconciliationDayBefore } from './reconciliation.service';
export { booksPostedOn, type BookLine } from './books';
