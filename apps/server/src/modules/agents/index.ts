export { agentRoutes } from './agents.routes';
export { isAgentVisible, isStoreVisible, visibleAgentsWhere, visibleStoresWhere } from '../../access';
