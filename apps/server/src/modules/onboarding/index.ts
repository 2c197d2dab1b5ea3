export { onboardingStatusEffects } from './onboarding.service';
export { onboardingRoutes } from './onboarding.routes';
