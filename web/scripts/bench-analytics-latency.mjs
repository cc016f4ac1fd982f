//! Benchmarks home page latency with and without a concurrent burst of census page views (`POST /api/census/RecordHit`) against a real server, and checks with the owner's report how many of the hits were stored.
//
// Usage: node scripts/bench-analytics-latency.mjs [--bin PATH] [--port 18091] [--duration 10]
//        [--warmup 3] [--page-connections 4] [--page-rate 50] [--hit-connections 32]
//        [--hit-rate 0] [--out FILE]
// The page load runs at a fixed request rate (--page-rate, requests per second over all page
// connections), so its latency is the page's own rather than a queue's; the hit burst runs as fast
// as it can, from a second Node process, so the two load generators do not share an event loop.
// A third run puts the same burst on /healthz, as a control for the cost of any burst at all.
// The markdown report goes to stdout (and to --out); progress goes to stderr.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startServer } from './bench/server.mjs';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(webDir, '..');

const { values: options } = parseArgs({
  options: {
    bin: { type: 'string', default: process.env.VITRINE_BIN ?? resolve(repoDir, 'target/release/vitrine') },
    port: { type: 'string', default: '18091' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    'page-connections': { type: 'string', default: '4' },
    'page-rate': { type: 'string', default: '50' },
    'hit-connections': { type: 'string', default: '32' },
    'hit-rate': { type: 'string', default: '0' },
    out: { type: 'string' },
  },
});
const binary = resolve(options.bin);
const durationSeconds = Number(options.duration);
const warmupSeconds = Number(options.warmup);
const pageConnections = Number(options['page-connections']);
const pageRate = Number(options['page-rate']);
const hitConnections = Number(options['hit-connections']);
/** Bursts' overall request rate per second; 0 means as fast as the server answers. */
const hitRate = Number(options['hit-rate']);
// At least 32 bytes, as the server requires of owner tokens.
const ownerToken = 'bench-owner-token-0123456789abcdef';

const log = (message) => process.stderr.write(`bench: ${message}\n`);

/** A page view as the page-view client sends it, without a visitor cookie (counted cookieless). */
const HIT_BODY = new URLSearchParams({
  event: '1',
  data: JSON.stringify({ websiteId: 'bench', pagePath: '/shop', url: '/shop', contentSource: 'c', title: 'Shop' }),
}).toString();

/**
 * @typedef {object} PageLatency
 * @property {number} p50 median latency in milliseconds
 * @property {number} p99 99th percentile latency in milliseconds
 * @property {number} requestsPerSecond
 * @property {number} failures
 */

/** @param {string} origin @returns {Promise<PageLatency>} */
async function measurePage(origin) {
  const result = await autocannon({ url: `${origin}/`, connections: pageConnections, overallRate: pageRate, duration: durationSeconds });
  return { p50: result.latency.p50, p99: result.latency.p99, requestsPerSecond: result.requests.average, failures: result.errors + result.timeouts + result.non2xx };
}

/** The page-view burst. @param {string} origin @param {string} crumb @param {number} seconds */
function startHitBurst(origin, crumb, seconds) {
  return startBurst(
    {
      url: `${origin}/api/census/RecordHit?crumb=${crumb}`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'bench/1.0', cookie: `crumb=${crumb}` },
      body: HIT_BODY,
    },
    seconds,
  );
}

/**
 * The control: the same burst against the health check, which does no work, so the difference
 * between the two loaded rows is what ingesting hits costs beyond answering requests at all.
 * @param {string} origin @param {number} seconds
 */
function startHealthBurst(origin, seconds) {
  return startBurst({ url: `${origin}/healthz` }, seconds);
}

/**
 * Runs an autocannon burst in a child Node process for `seconds`; resolves with its totals.
 * @param {Record<string, unknown>} request @param {number} seconds
 * @returns {{ done: Promise<{ requests: number, perSecond: number, p50: number, p99: number, failures: number }> }}
 */
function startBurst(request, seconds) {
  const script = `
    import autocannon from 'autocannon';
    const result = await autocannon({
      ...${JSON.stringify(request)},
      connections: ${hitConnections},
      ${hitRate > 0 ? `overallRate: ${hitRate},` : ''}
      duration: ${seconds},
    });
    process.stdout.write(JSON.stringify({
      requests: result.requests.total,
      perSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: result.errors + result.timeouts + result.non2xx,
    }));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: webDir, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString()));
  const done = new Promise((resolveDone, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolveDone(JSON.parse(output)) : reject(new Error(`the hit burst exited with ${code}`))));
  });
  return { done };
}

/**
 * The crumb the crumb endpoint hands a visitor (a cookie the page's script echoes in the
 * query), which the census calls need like every POST.
 * @param {string} origin
 */
async function visitorCrumb(origin) {
  const response = await fetch(`${origin}/api/crumb`);
  const crumb = response.headers.getSetCookie().map((cookie) => /^crumb=([^;]+)/.exec(cookie)?.[1]).find(Boolean);
  if (crumb === undefined) throw new Error('the crumb endpoint set no crumb cookie');
  return crumb;
}

/** Page views the owner's report holds, over all days. @param {string} origin */
async function storedViews(origin) {
  const response = await fetch(`${origin}/api/analytics/report`, { headers: { authorization: `Bearer ${ownerToken}` } });
  if (!response.ok) throw new Error(`the owner's report answered ${response.status}`);
  const report = /** @type {{ days: { views: number }[] }} */ (await response.json());
  return report.days.reduce((sum, day) => sum + day.views, 0);
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const f1 = (value) => value.toFixed(1);

async function main() {
  const workDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-analytics-'));
  // The owner's token opens the report, from which the stored hits are counted.
  process.env.VITRINE_OWNER_TOKEN = ownerToken;
  const server = await startServer({ binary, port: Number(options.port), dataDir: workDir });
  let quiet;
  let loaded;
  let burst;
  let stored;
  let control;
  let controlBurst;
  try {
    log(`warm-up of / (${warmupSeconds} s)`);
    await autocannon({ url: `${server.origin}/`, connections: pageConnections, duration: warmupSeconds });
    log(`/ alone: ${pageConnections} connections at ${pageRate} requests/s for ${durationSeconds} s`);
    quiet = await measurePage(server.origin);
    log(`/ during a burst of RecordHit from ${hitConnections} connections`);
    // The burst starts a second early and ends a second late, so the whole page run is under it.
    const hits = startHitBurst(server.origin, await visitorCrumb(server.origin), durationSeconds + 2);
    await sleep(1_000);
    loaded = await measurePage(server.origin);
    burst = await hits.done;
    // The buffer is flushed about every second; wait for the last rows.
    await sleep(2_500);
    stored = await storedViews(server.origin);
    log(`/ during a burst of GET /healthz from ${hitConnections} connections (the control)`);
    const health = startHealthBurst(server.origin, durationSeconds + 2);
    await sleep(1_000);
    control = await measurePage(server.origin);
    controlBurst = await health.done;
  } finally {
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  }

  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.versions.node}, binary \`${relative(repoDir, binary)}\`; both load generators on the same machine as the server.`,
    '',
    `Home page: ${pageConnections} connections at a fixed ${pageRate} requests/s for ${durationSeconds} s. Hit burst: ${hitConnections} connections posting page views ${hitRate > 0 ? `at ${hitRate} requests/s` : 'as fast as the server answers'}, from a second process.`,
    '',
    '| home page `/` | p50 latency | p99 latency | requests/s | failed requests |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| alone | ${f1(quiet.p50)} ms | ${f1(quiet.p99)} ms | ${Math.round(quiet.requestsPerSecond)} | ${quiet.failures} |`,
    `| during the hit burst | ${f1(loaded.p50)} ms | ${f1(loaded.p99)} ms | ${Math.round(loaded.requestsPerSecond)} | ${loaded.failures} |`,
    `| during a burst of \`GET /healthz\` (control) | ${f1(control.p50)} ms | ${f1(control.p99)} ms | ${Math.round(control.requestsPerSecond)} | ${control.failures} |`,
    '',
    `Hit burst: ${burst.requests} hits answered (${Math.round(burst.perSecond)}/s, p50 ${f1(burst.p50)} ms, p99 ${f1(burst.p99)} ms, ${burst.failures} failed); ` +
      `${stored} page views in the owner's report afterwards` +
      (stored < burst.requests - burst.failures ? ` (${burst.requests - burst.failures - stored} dropped by the full buffer: counted, never waited for).` : ' (none dropped).') +
      ` Control burst: ${controlBurst.requests} health checks answered (${Math.round(controlBurst.perSecond)}/s, ${controlBurst.failures} failed).`,
  ];
  const markdown = lines.join('\n');
  process.stdout.write(`${markdown}\n`);
  if (options.out !== undefined) writeFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), options.out), `${markdown}\n`);
}

main().catch((error) => {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
