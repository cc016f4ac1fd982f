//! Runs the `vitrine` command line on the test server's own database, as an owner would on theirs.

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestInfo } from '@playwright/test';

const webDir = fileURLToPath(new URL('../..', import.meta.url));
const binary = process.env['VITRINE_BIN'] ? resolve(process.env['VITRINE_BIN']) : resolve(webDir, '../target/debug/vitrine');

/** Runs `vitrine ARGS --data-dir ...` with `input` on standard input; its standard output. */
export function vitrineCli(info: TestInfo, args: string[], input?: string): string {
  return vitrineCliIn(info.config.metadata['dataDir'] as string, args, input);
}

/** Runs `vitrine ARGS --data-dir DATA_DIR` (a server of a test's own, say); its standard output. */
export function vitrineCliIn(dataDir: string, args: string[], input?: string): string {
  return execFileSync(binary, [...args, '--data-dir', dataDir], {
    input,
    encoding: 'utf8',
    env: { ...process.env, RUST_LOG: 'warn' },
  });
}
