export { receiptRoutes, RECEIPTS_GUARD, APPLY_RECEIPT_GUARD } from './receipts.routes';
