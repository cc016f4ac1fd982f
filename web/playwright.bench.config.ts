//! The browser benchmarks: the end-to-end configuration (same server, same Chromium), run over `e2e/bench/*.bench.ts` only.

import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({ ...base, testDir: './e2e/bench', testMatch: '**/*.bench.ts', reporter: 'list', use: { ...base.use, trace: 'off', screenshot: 'off' } });
