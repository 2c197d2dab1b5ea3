export { salesReportRoutes, SALES_REPORTS_GUARD } from './sales-reports.routes';
