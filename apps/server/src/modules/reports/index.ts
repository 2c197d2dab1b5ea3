export { reportRoutes, REPORTS_GUARD } from './reports.routes';
export { compactReportFacts } from './reports.service';
