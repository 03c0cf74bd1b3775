// The browser every e2e test uses: Debian's Chromium (or $CHROMIUM) driven by playwright-core,
// headless, with nothing that reaches the network on its own.

import { chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A browser with its own new profile (nothing shared with any other), at a desktop size
 * unless `options` say otherwise. */
export function launch(profile, options = {}) {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1100 },
    deviceScaleFactor: 1,
    ...options,
  });
}
