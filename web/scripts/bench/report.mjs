//! Turns the benchmark's measurements into the markdown tables BENCHMARKS.md quotes, each figure beside its target.

/** The published page must serve at least this share of the static file's request rate. */
export const MIN_PAGE_TO_STATIC_RATIO = 0.5;
/** Most compressed JavaScript a demo page may download on first load, in bytes (100 KB of 1,024 bytes). */
export const MAX_JAVASCRIPT_BYTES = 100 * 1024;
/** Least Lighthouse score per category. */
export const MIN_LIGHTHOUSE = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100 };

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value) => `${value.toFixed(1)} ms`;
const verdict = (met) => (met ? 'met' : '**missed**');
const pathOf = (url) => {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
};

/**
 * @typedef {object} BenchResults
 * @property {{ date: string, machine: string, node: string, chromium: string, binary: string, connections: number, durationSeconds: number, warmupSeconds: number }} setup
 * @property {{ page: import('./load.mjs').LoadResult, staticFile?: import('./load.mjs').LoadResult, staticError?: string } | { error: string }} load
 * @property {import('./javascript.mjs').JavascriptWeight[] | { error: string }} javascript
 * @property {import('./lighthouse.mjs').LighthouseScores[] | { error: string } | undefined} lighthouse
 */

/** @param {BenchResults} results @returns {{ markdown: string, allMet: boolean }} */
export function renderReport(results) {
  const { setup } = results;
  let allMet = true;
  const lines = [
    '## Measurements',
    '',
    `Measured ${setup.date} on ${setup.machine}, Node ${setup.node}, Chromium ${setup.chromium}, release build \`${setup.binary}\`.`,
    '',
    '### Home page throughput',
    '',
    `autocannon, ${setup.connections} connections for ${setup.durationSeconds} s after a ${setup.warmupSeconds} s warm-up, ` +
      'no compression requested, load generator on the same machine as the server.',
    '',
  ];

  if ('error' in results.load) {
    allMet = false;
    lines.push(`Not measured: ${results.load.error}`, '');
  } else {
    const { page, staticFile, staticError } = results.load;
    const row = (/** @type {import('./load.mjs').LoadResult} */ load, /** @type {string} */ what) =>
      `| \`${pathOf(load.url)}\` | ${what} | ${Math.round(load.requestsPerSecond)} | ${ms(load.p50)} | ${ms(load.p99)} | ${kb(load.bytesPerResponse)} | ${load.failures} |`;
    lines.push(
      '| URL | served as | requests/s | p50 latency | p99 latency | response size | failed requests |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
      row(page, 'published page'),
    );
    if (staticFile === undefined) {
      allMet = false;
      lines.push('', `Static file not measured, so the target (at least ${MIN_PAGE_TO_STATIC_RATIO * 100} % of its rate) is unchecked: ${staticError ?? 'unknown reason'}.`, '');
    } else {
      const ratio = staticFile.requestsPerSecond > 0 ? page.requestsPerSecond / staticFile.requestsPerSecond : 0;
      const met = ratio >= MIN_PAGE_TO_STATIC_RATIO && page.failures === 0 && staticFile.failures === 0;
      allMet &&= met;
      lines.push(
        row(staticFile, 'the same HTML as a static file'),
        '',
        `Published page at ${(ratio * 100).toFixed(0)} % of the static-file rate; target at least ${MIN_PAGE_TO_STATIC_RATIO * 100} %, ` +
          `with no failed request: ${verdict(met)}.`,
        '',
      );
    }
  }

  lines.push('### JavaScript on first load', '', 'Fresh browser context per page, `Accept-Encoding: br, gzip`, page scrolled through so every island loads.', '');
  if ('error' in results.javascript) {
    allMet = false;
    lines.push(`Not measured: ${results.javascript.error}`, '');
  } else {
    lines.push('| page | scripts | compressed (transfer) | uncompressed | encodings | target at most 100 KB |', '| --- | ---: | ---: | ---: | --- | --- |');
    for (const weight of results.javascript) {
      const met = weight.transferBytes <= MAX_JAVASCRIPT_BYTES;
      allMet &&= met;
      const encodings = [...new Set(weight.encodings)].join(', ') || 'none';
      lines.push(`| \`${pathOf(weight.url)}\` | ${weight.scripts} | ${kb(weight.transferBytes)} | ${kb(weight.decodedBytes)} | ${encodings} | ${verdict(met)} |`);
    }
    lines.push('');
  }

  lines.push('### Lighthouse', '', 'Lighthouse 12, mobile, default configuration (simulated throttling), one run per page.', '');
  if (results.lighthouse === undefined) {
    lines.push('Not run (--skip-lighthouse).', '');
  } else if ('error' in results.lighthouse) {
    allMet = false;
    lines.push(`Not measured: ${results.lighthouse.error}`, '');
  } else {
    const categories = Object.keys(MIN_LIGHTHOUSE);
    const targets = categories.map((id) => `${id} ${MIN_LIGHTHOUSE[id]}`).join(', ');
    lines.push(
      `| page | performance | accessibility | best practices | SEO | target (${targets}) |`,
      '| --- | ---: | ---: | ---: | ---: | --- |',
    );
    const lost = [];
    for (const run of results.lighthouse) {
      if (run.error !== undefined) {
        allMet = false;
        lines.push(`| \`${pathOf(run.url)}\` | error | error | error | error | **missed** |`);
        lost.push(`- \`${pathOf(run.url)}\`: ${run.error.split('\n')[0]}`);
        continue;
      }
      const met = categories.every((id) => (run.scores[id] ?? 0) >= MIN_LIGHTHOUSE[id]);
      allMet &&= met;
      const cells = categories.map((id) => String(run.scores[id] ?? 'n/a'));
      lines.push(`| \`${pathOf(run.url)}\` | ${cells.join(' | ')} | ${verdict(met)} |`);
      for (const id of categories) {
        if ((run.scores[id] ?? 0) < 100 && run.failedAudits[id]?.length) {
          lost.push(`- \`${pathOf(run.url)}\` ${id}: ${run.failedAudits[id].join('; ')}`);
        }
      }
    }
    lines.push('');
    if (lost.length > 0) lines.push('Audits that cost points:', '', ...lost, '');
  }

  return { markdown: lines.join('\n'), allMet };
}
