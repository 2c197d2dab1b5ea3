export { contractStatusEffects, regenerateAfterSave } from './contracts.service';
export { contractRoutes } from './contracts.routes';
