//! The owner dashboard's first paint (a benchmark, not a test): a month of generated traffic and a
//! reporting owner made with the `vitrine` command line, signed in through the real form in
//! Chromium; then Lighthouse (mobile, the configuration the site's pages are measured with) loads
//! `/config/dashboard?range=30d` with that session's cookie, a few times. Prints, per run and as
//! the median, First Contentful Paint, Largest Contentful Paint, Total Blocking Time, the
//! performance score, and the JavaScript the page loaded.
//
// Usage: node scripts/bench-dashboard-paint.mjs [--bin PATH] [--runs 3] [--views-per-day 1000]
//        [--port 18095] [--out FILE]
// The markdown table goes to stdout (and to --out); progress goes to stderr.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { runLighthouse } from './bench/lighthouse.mjs';
import { startServer } from './bench/server.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EMAIL = 'paint.bench@example.com';
const PASSWORD = 'correct horse battery';
const PATH = '/config/dashboard?range=30d';

const { values: options } = parseArgs({
  options: {
    bin: { type: 'string', default: process.env.VITRINE_BIN ?? resolve(repoDir, 'target/release/vitrine') },
    runs: { type: 'string', default: '3' },
    'views-per-day': { type: 'string', default: '1000' },
    port: { type: 'string', default: '18095' },
    out: { type: 'string' },
  },
});
const binary = resolve(options.bin);
const runs = Number(options.runs);
const origin = `http://127.0.0.1:${options.port}`;
const log = (message) => process.stderr.write(`bench-dashboard-paint: ${message}\n`);

/** Runs `vitrine ARGS --data-dir DATA_DIR`, as an owner would on their server. */
function vitrine(dataDir, args, input) {
  return execFileSync(binary, [...args, '--data-dir', dataDir], { input, encoding: 'utf8', env: { ...process.env, RUST_LOG: 'warn' } });
}

/** Signs in at /config/ through the form and returns the session as a `Cookie` header. */
async function signedInCookie() {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/config/`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in as ${EMAIL}`).waitFor();
    const cookies = await page.context().cookies(origin);
    return cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
  } finally {
    await browser.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const workDir = mkdtempSync(join(tmpdir(), 'vitrine-dashboard-paint-'));
const dataDir = join(workDir, 'data');
let server;
try {
  log(`generating 30 days of ${options['views-per-day']} page views a day`);
  vitrine(dataDir, ['migrate']);
  vitrine(dataDir, ['analytics', 'generate', '--days', '30', '--views-per-day', options['views-per-day']]);
  vitrine(dataDir, ['owner', 'add', EMAIL, '--role', 'reporting', '--password-stdin', '--public-url', origin], PASSWORD);
  server = await startServer({ binary, port: Number(options.port), dataDir });
  const cookie = await signedInCookie();
  const check = await fetch(`${origin}${PATH}`, { headers: { cookie } });
  const html = await check.text();
  // The dashboard itself, not the sign-in form a missing session would bring.
  if (!html.includes('<title>Dashboard</title>') || html.includes('type="password"')) {
    throw new Error(`${PATH} did not show the signed-in dashboard (${check.status})`);
  }

  const rows = [];
  for (let run = 0; run < runs; run += 1) {
    log(`Lighthouse run ${run + 1} of ${runs}`);
    const result = await runLighthouse(`${origin}${PATH}`, workDir, run, { extraHeaders: { Cookie: cookie } });
    if (result.error) throw new Error(result.error);
    const report = JSON.parse(readFileSync(join(workDir, `lighthouse-${run}.json`), 'utf8'));
    const metric = (id) => report.audits[id]?.numericValue ?? Number.NaN;
    const scripts = (report.audits['network-requests']?.details?.items ?? []).filter((item) => item.resourceType === 'Script');
    rows.push({
      fcp: metric('first-contentful-paint'),
      lcp: metric('largest-contentful-paint'),
      tbt: metric('total-blocking-time'),
      score: result.scores.performance ?? Number.NaN,
      scriptKb: scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1000,
      scripts: scripts.length,
    });
  }

  const line = (label, row) =>
    `| ${label} | ${Math.round(row.fcp)} ms | ${Math.round(row.lcp)} ms | ${Math.round(row.tbt)} ms | ${row.score} | ${row.scripts} files, ${row.scriptKb.toFixed(1)} KB |`;
  const middle = {
    fcp: median(rows.map((row) => row.fcp)),
    lcp: median(rows.map((row) => row.lcp)),
    tbt: median(rows.map((row) => row.tbt)),
    score: median(rows.map((row) => row.score)),
    scriptKb: median(rows.map((row) => row.scriptKb)),
    scripts: median(rows.map((row) => row.scripts)),
  };
  const report = [
    `Lighthouse (mobile) on \`${PATH}\`, signed in as a reporting owner, 30 days of ${options['views-per-day']} page views a day:`,
    '',
    '| run | First Contentful Paint | Largest Contentful Paint | Total Blocking Time | performance | JavaScript (transferred) |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row, index) => line(String(index + 1), row)),
    line('median', middle),
    '',
  ].join('\n');
  process.stdout.write(report);
  if (options.out) writeFileSync(options.out, report);
} finally {
  await server?.stop();
  rmSync(workDir, { recursive: true, force: true });
}
