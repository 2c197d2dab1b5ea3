/* global self */
// The service worker of POS Back Office (spec §9: /ngsw-worker.js). It caches nothing; it exists so the
// browser notices a new deployment: every build writes its own VERSION below (vite.config.ts), which makes
// the script differ byte for byte. A new version installs and waits until the page asks it to take over
// with the message 'SKIP_WAITING' (src/lib/app-update.ts), then the page counts down and reloads.
const VERSION = 'development';

self.addEventListener('message', (event) => {
  if (event.data === 'SKIP_WAITING') self.skipWaiting();
  if (event.data === 'VERSION' && event.source) event.source.postMessage({ version: VERSION });
});
