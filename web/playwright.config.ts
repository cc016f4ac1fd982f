//! End-to-end test configuration: the real `vitrine` server on a fresh database, driven by the system's headless Chromium.

import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.mjs';

const webDir = fileURLToPath(new URL('.', import.meta.url));

// A fixed port keeps the command simple; VITRINE_E2E_PORT moves it when 18080 is taken.
const port = Number(process.env['VITRINE_E2E_PORT'] ?? '18080');
const baseURL = `http://127.0.0.1:${port}`;
// The local tile server map blocks draw from (a port of its own, 10000 above the site's).
export const TILE_PORT = port + 10_000;
const tileTemplate = `http://127.0.0.1:${TILE_PORT}/tiles/{z}/{x}/{y}.png`;

// The binary is built beforehand (`cargo build -p vitrine`), because `cargo run` inside the
// web server's start-up timeout would turn a cold build into a confusing time-out.
const binary = process.env['VITRINE_BIN'] ? resolve(process.env['VITRINE_BIN']) : resolve(webDir, '../target/debug/vitrine');
// Printed by the shell, so it holds no quotes or backticks.
const missingBinary =
  `No vitrine server binary at ${binary}. Build it with npm run build here and ` +
  'cargo build -p vitrine at the repository root, or point VITRINE_BIN at a built binary.';

// One directory per port, emptied by the start command: every run gets a fresh database, and a
// run that never starts (a listing, a missing binary) leaves nothing new behind.
const dataDir = join(tmpdir(), `vitrine-e2e-${port}`);

// The owner's token of the test server, for owner calls (e.g. making a review request); the
// server refuses tokens shorter than 32 bytes.
export const OWNER_TOKEN = 'e2e-owner-token-0123456789abcdef0123';

export default defineConfig({
  testDir: './e2e',
  // A shard of a split run (`cargo xtask test`) keeps its traces and screenshots apart.
  outputDir: process.env['VITRINE_E2E_RESULTS'] ?? './e2e/.results',
  globalTeardown: './e2e/support/global-teardown.ts',
  metadata: { dataDir },
  // The machines this runs on have two cores, and the server is shared by every test.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env['CI']),
  // A flaky page is a defect to find, not to hide behind a retry.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env['CI'] ? [['list'], ['github']] : 'list',
  use: {
    baseURL,
    headless: true,
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      command: `exec node '${resolve(webDir, 'e2e/support/tile-server.mjs')}' ${TILE_PORT}`,
      url: `http://127.0.0.1:${TILE_PORT}/`,
      reuseExistingServer: false,
      timeout: 10_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // `exec` hands the shell's process to the server, so the shutdown signal reaches it directly.
      command: [
        `test -x '${binary}' || { echo "${missingBinary}" >&2; exit 1; }`,
        `rm -rf '${dataDir}'`,
        `mkdir -p '${dataDir}'`,
        // Every test visits from 127.0.0.1, so the per-address request limit is raised out of the way.
        `exec '${binary}' serve --plain-http --test-payments --request-limits address=1000000,visitor=1000000 --attempt-limits address=1000000,visitor=1000000 --addr 127.0.0.1:${port} --data-dir '${dataDir}' --tile-url '${tileTemplate}' --tile-attribution 'Test tiles'`,
      ].join(' && '),
      url: `${baseURL}/healthz`,
      // Another server on the port would be tested instead of this build: refuse it.
      reuseExistingServer: false,
      timeout: 60_000,
      // Request logs would drown the test report; warnings, errors and panics still show.
      env: { RUST_LOG: process.env['RUST_LOG'] ?? 'warn', VITRINE_OWNER_TOKEN: OWNER_TOKEN },
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
  ],
});
