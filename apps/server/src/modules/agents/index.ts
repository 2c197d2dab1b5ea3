export { agentRoutes } from './agents.routes';
