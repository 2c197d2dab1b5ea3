export { customerListingRoutes, CUSTOMER_LISTING_GUARD } from './customer-listing.routes';
