//! Measures one URL's request rate and latency under a fixed HTTP load with autocannon.

import autocannon from 'autocannon';

/**
 * @typedef {object} LoadOptions
 * @property {number} connections concurrent connections for the measured run
 * @property {number} durationSeconds length of the measured run
 * @property {number} warmupSeconds length of the unmeasured run before it
 */

/**
 * @typedef {object} LoadResult
 * @property {string} url
 * @property {number} requestsPerSecond mean over the measured run
 * @property {number} p50 median latency in milliseconds
 * @property {number} p99 99th percentile latency in milliseconds
 * @property {number} bytesPerResponse mean response size (headers and body) on the wire
 * @property {number} requests total answered requests
 * @property {number} failures errors, timeouts and non-2xx answers together
 */

/** @param {string} url @param {LoadOptions} options @returns {Promise<LoadResult>} */
export async function measureLoad(url, { connections, durationSeconds, warmupSeconds }) {
  // The warm-up fills the server's caches and connection pools and lets the CPU settle, so the
  // measured run sees the steady state rather than the first requests.
  if (warmupSeconds > 0) await autocannon({ url, connections: Math.min(connections, 10), duration: warmupSeconds });
  const result = await autocannon({ url, connections, duration: durationSeconds });
  const requests = result.requests.total;
  return {
    url,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerResponse: requests > 0 ? result.throughput.total / requests : 0,
    requests,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}
