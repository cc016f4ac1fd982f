//! Removes the server's temporary data directory once the tests are done.

import { rmSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';

export default function globalTeardown(config: FullConfig): void {
  const dataDir = config.metadata['dataDir'];
  if (typeof dataDir === 'string' && dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
}
