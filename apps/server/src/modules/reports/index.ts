export { reportRoutes, REPORTS_GUARD } from './reports.routes';
