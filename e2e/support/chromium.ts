import { existsSync } from 'node:fs';

/** Debian's Chromium (or CHROMIUM_PATH). The wrapper /usr/bin/chromium prints a harmless shell warning, so prefer the binary. */
export function findChromium(): string | undefined {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/lib/chromium/chromium',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ];
  return candidates.find((p): p is string => Boolean(p) && existsSync(p as string));
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
