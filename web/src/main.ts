//! The common script: the page runtime every page loads. Its static imports must never reach React.

import { startRuntime } from './runtime/runtime';

// Lazy glob: each island becomes its own chunk, fetched only when a page has that block.
const islandModules = import.meta.glob(['./islands/*.tsx', '!./islands/*.test.tsx']);

startRuntime({ window, islandModules });
