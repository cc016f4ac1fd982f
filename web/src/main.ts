//! The common script: the page runtime every page loads. Its static imports must never reach React.

import { startCommerce } from './cart/runtime';
import { startPrivacy } from './consent/privacy-runtime';
import { startRuntime } from './runtime/runtime';

// Lazy glob: each island becomes its own chunk, fetched only when a page has that block.
const islandModules = import.meta.glob(['./islands/*.tsx', '!./islands/*.test.tsx']);

const runtime = startRuntime({ window, islandModules });

// Consent and analytics are small plain TypeScript, part of the common script because every page
// of a site with a banner needs them; not started again when a second copy of this script stops
// at the single-run guard.
if (runtime !== undefined) startPrivacy(window);
if (runtime !== undefined) startCommerce(window);
