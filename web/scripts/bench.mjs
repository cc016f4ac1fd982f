//! Benchmarks the release server: home page throughput against a static file, JavaScript weight per page, and Lighthouse scores.
//
// Usage: node scripts/bench.mjs [--out FILE] [--skip-build] [--skip-lighthouse] [--check]
//        [--connections 50] [--duration 10] [--warmup 3] [--port 18090] [--bin PATH]
// The markdown report goes to stdout (and to --out); progress goes to stderr.

import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { demoPages, javascriptWeight } from './bench/javascript.mjs';
import { runLighthouse } from './bench/lighthouse.mjs';
import { measureLoad } from './bench/load.mjs';
import { renderReport } from './bench/report.mjs';
import { buildRelease } from './bench/build.mjs';
import { startServer } from './bench/server.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(webDir, '..');
/** Name under which the home page's HTML is served as a plain file. */
const STATIC_HOME = 'bench-home.html';

const { values: options } = parseArgs({
  options: {
    out: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    'skip-lighthouse': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    port: { type: 'string', default: '18090' },
    bin: { type: 'string', default: process.env.VITRINE_BIN ?? resolve(repoDir, 'target/release/vitrine') },
  },
});
const binary = resolve(options.bin);
const port = Number(options.port);
const load = { connections: Number(options.connections), durationSeconds: Number(options.duration), warmupSeconds: Number(options.warmup) };

const log = (message) => process.stderr.write(`bench: ${message}\n`);
const errorText = (error) => (error instanceof Error ? error.message : String(error));

/**
 * Serves the home page twice over: rendered by the server at `/`, and as the same bytes from a
 * file under --assets-dir. The file is written between two starts, so a server that indexes its
 * assets directory when it starts sees it. A server without --assets-dir still gets its page
 * measured, and the report says why the static file was not.
 */
async function measureThroughput(workDir, dataDir) {
  const assetsDir = join(workDir, 'site');
  cpSync(join(webDir, 'dist'), assetsDir, { recursive: true });
  mkdirSync(join(assetsDir, 'assets'), { recursive: true });
  const serverOptions = { binary, port, dataDir, assetsDir };

  let server;
  try {
    server = await startServer(serverOptions);
  } catch (error) {
    const staticError = `the server did not start with --assets-dir: ${errorText(error).split('\n').slice(0, 3).join(' ')}`;
    log(staticError);
    server = await startServer({ binary, port, dataDir });
    try {
      log(`load test of / (${load.connections} connections, ${load.durationSeconds} s)`);
      return { page: await measureLoad(`${server.origin}/`, load), staticError };
    } finally {
      await server.stop();
    }
  }
  const html = await (await fetch(`${server.origin}/`)).text();
  await server.stop();
  writeFileSync(join(assetsDir, 'assets', STATIC_HOME), html);

  server = await startServer(serverOptions);
  try {
    const staticUrl = `${server.origin}/assets/${STATIC_HOME}`;
    const check = await fetch(staticUrl);
    const body = await check.text();
    if (!check.ok || body.length !== html.length) {
      throw new Error(`${staticUrl} answered ${check.status} with ${body.length} characters instead of the home page's ${html.length}`);
    }
    log(`load test of / (${load.connections} connections, ${load.durationSeconds} s)`);
    const page = await measureLoad(`${server.origin}/`, load);
    log(`load test of /assets/${STATIC_HOME}`);
    const staticFile = await measureLoad(staticUrl, load);
    return { page, staticFile };
  } finally {
    await server.stop();
  }
}

async function main() {
  if (!options['skip-build']) buildRelease({ webDir, repoDir, log });
  const workDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-'));
  const dataDir = join(workDir, 'data');
  mkdirSync(dataDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true });
  /** @type {import('./bench/report.mjs').BenchResults} */
  const results = {
    setup: {
      date: new Date().toISOString().slice(0, 10),
      machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`,
      node: process.versions.node,
      chromium: browser.version(),
      binary: relative(repoDir, binary),
      ...load,
    },
    load: { error: 'not run' },
    javascript: { error: 'not run' },
    lighthouse: options['skip-lighthouse'] ? undefined : { error: 'not run' },
  };

  try {
    try {
      results.load = await measureThroughput(workDir, dataDir);
    } catch (error) {
      log(`throughput: ${errorText(error)}`);
      results.load = { error: errorText(error) };
    }

    // Page weight and Lighthouse use the embedded assets, as a real deployment does.
    const server = await startServer({ binary, port, dataDir });
    try {
      const pages = await demoPages(browser, server.origin);
      log(`demo pages: ${pages.map((url) => new URL(url).pathname).join(' ')}`);
      try {
        const weights = [];
        for (const url of pages) weights.push(await javascriptWeight(browser, url));
        results.javascript = weights;
      } catch (error) {
        log(`javascript weight: ${errorText(error)}`);
        results.javascript = { error: errorText(error) };
      }
      if (!options['skip-lighthouse']) {
        const scores = [];
        for (const [index, url] of pages.entries()) {
          log(`lighthouse ${url}`);
          scores.push(await runLighthouse(url, workDir, index));
        }
        results.lighthouse = scores;
      }
    } finally {
      await server.stop();
    }
  } finally {
    await browser.close();
    rmSync(workDir, { recursive: true, force: true });
  }

  const { markdown, allMet } = renderReport(results);
  process.stdout.write(`${markdown}\n`);
  // npm runs scripts in web/; INIT_CWD is where the command was typed, which is what --out means.
  if (options.out !== undefined) writeFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), options.out), `${markdown}\n`);
  if (options.check && !allMet) process.exitCode = 1;
}

main().catch((error) => {
  log(errorText(error));
  process.exitCode = 1;
});
