//! The common script: the page runtime every page loads. Its static imports must never reach React.

import { startCommerce } from './cart/runtime';
import { startPrivacy } from './consent/privacy-runtime';
import { markNativeApp, nativeAppMode } from './native-app/detection';
import { startOwnerSide } from './owner/owner-hint';
import { startRuntime } from './runtime/runtime';

// Lazy glob: each island becomes its own chunk, fetched only when a page has that block.
const islandModules = import.meta.glob(['./islands/*.tsx', '!./islands/*.test.tsx']);

const runtime = startRuntime({ window, islandModules });

// Consent and analytics are small plain TypeScript, part of the common script because every page
// of a site with a banner needs them; not started again when a second copy of this script stops
// at the single-run guard.
const nativeApp = nativeAppMode(window);
if (runtime !== undefined) markNativeApp(document, nativeApp);
// A signed-in owner's context comes first (000 s2, s6): it may send the owner to /config/, and
// owners and editors are not counted as visitors.
if (runtime !== undefined) {
  startOwnerSide(window, runtime.escape, runtime.pageContext, () => startPrivacy(window, nativeApp));
}
if (runtime !== undefined) startCommerce(window);
// After a logout (000 s2) the page says so; the popup code is fetched only then.
if (runtime !== undefined && window.location.search.includes('logout=true')) {
  void import('./widgets/logout-notice').then((notice) => {
    if (notice.cameFromLogout(window.location.href)) void notice.showLogoutNotice(window);
  });
}
// Native-app mode's bridge client is a chunk of its own, fetched only in the app or on the
// mobile-app web platform.
if (runtime !== undefined && nativeApp.kind !== 'none') {
  void import('./native-app/mode').then((mode) => mode.startNativeAppMode(window, nativeApp, runtime.pageContext));
}
// Relative times (001 s9: "just now", "5 minutes ago", refreshed every 5 s) are a chunk of their
// own, fetched only by pages with a `<time data-relative>` (a product's reviews).
if (runtime !== undefined && document.querySelector('time[data-relative]') !== null) {
  void import('./widgets/human').then(({ startRelativeTimes }) =>
    startRelativeTimes(document, document.documentElement.lang || 'en-US'),
  );
}
// The image loader is a chunk of its own, fetched only by pages with images it manages (`img[data-src]`: gallery
// slides and fit or fill images); every other image is sized by the browser from the server's `srcset`.
if (runtime !== undefined && document.querySelector('img[data-src]') !== null) {
  void import('./images/image-loader').then(({ ImageLoader }) => new ImageLoader(window).observeAll(document));
}
