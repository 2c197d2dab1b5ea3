/** Contract work a status change causes (decision 082): see contracts.service.ts. */
export { contractStatusEffects } from './contracts.service';
