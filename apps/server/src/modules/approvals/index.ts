export { approvalRoutes, APPROVALS_GUARD } from './approvals.routes';
