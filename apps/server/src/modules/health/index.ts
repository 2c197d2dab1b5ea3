export { benchRoutes } from './bench.routes';
export { healthRoutes } from './health.routes';
