// The notifications' drawing on its own, loaded lazily by providers.tsx: importing the package here (not
// `import('@mantine/notifications')` there) lets the bundler leave the component out of the first route's chunk.
export { Notifications } from '@mantine/notifications';
