//! Runs Lighthouse (mobile, default configuration) on one page through npx, with the system Chromium.

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.mjs';

/** Lighthouse stays out of package.json: it is large and only this script needs it. */
const LIGHTHOUSE_PACKAGE = 'lighthouse@12';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/**
 * @typedef {object} LighthouseScores
 * @property {string} url
 * @property {Record<string, number | null>} scores category id to a 0-100 score (null when not scored)
 * @property {Record<string, string[]>} failedAudits category id to the titles of audits that lost it points
 * @property {string} [error] why the run produced no report
 */

/**
 * @param {string} url
 * @param {string} outDir where the JSON report is written (`lighthouse-INDEX.json`)
 * @param {number} index distinguishes the report files of one run
 * @param {{ extraHeaders?: Record<string, string> }} [options] headers sent with every request (a signed-in owner's cookie)
 * @returns {Promise<LighthouseScores>}
 */
export async function runLighthouse(url, outDir, index, { extraHeaders } = {}) {
  const reportPath = join(outDir, `lighthouse-${index}.json`);
  const args = [
    '--yes',
    LIGHTHOUSE_PACKAGE,
    url,
    '--output=json',
    `--output-path=${reportPath}`,
    `--only-categories=${CATEGORIES.join(',')}`,
    `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`,
    '--quiet',
  ];
  if (extraHeaders !== undefined) args.push(`--extra-headers=${JSON.stringify(extraHeaders)}`);
  const env = { ...process.env, CHROME_PATH: CHROMIUM_PATH };
  const { code, output } = await run('npx', args, env);
  if (code !== 0) return { url, scores: {}, failedAudits: {}, error: `lighthouse exited with ${code}: ${output.slice(-2_000)}` };

  const report = JSON.parse(await readFile(reportPath, 'utf8'));
  if (report.runtimeError) return { url, scores: {}, failedAudits: {}, error: report.runtimeError.message };
  /** @type {Record<string, number | null>} */
  const scores = {};
  /** @type {Record<string, string[]>} */
  const failedAudits = {};
  for (const id of CATEGORIES) {
    const category = report.categories[id];
    scores[id] = category?.score === null || category === undefined ? null : Math.round(category.score * 100);
    failedAudits[id] = (category?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => report.audits[ref.id])
      .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
      .map((audit) => `${audit.id} (${audit.title}${audit.displayValue ? `: ${audit.displayValue}` : ''})`);
  }
  return { url, scores, failedAudits };
}

/** @returns {Promise<{ code: number | null, output: string }>} */
function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}
