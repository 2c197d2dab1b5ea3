export { breathOfLifeRoutes, BREATH_OF_LIFE_GUARD } from './breath-of-life.routes';
