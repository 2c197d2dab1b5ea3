export {
  orderSaleTaxCents,
  rateInForceFor,
  saleTaxCents,
  storeSaleExempt,
  taxDayOf,
  taxToday,
} from './tax-rules.service';
export { taxRoutes } from './taxes.routes';
