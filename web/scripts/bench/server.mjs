//! Starts and stops a `vitrine serve` process for the benchmark, and waits until it answers /healthz.

import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
/** How much of the server's output is kept to explain a failed start. */
const OUTPUT_TAIL_CHARS = 8_000;

/**
 * @typedef {object} ServerOptions
 * @property {string} binary path of the built `vitrine` binary
 * @property {number} port loopback port to listen on
 * @property {string} dataDir directory of the server's SQLite database
 * @property {string} [assetsDir] serve web assets from this directory instead of the embedded copy
 * @property {Record<string, string>} [env] environment variables set for the server, over this process's
 */

/**
 * @typedef {object} RunningServer
 * @property {string} origin e.g. `http://127.0.0.1:18090`
 * @property {() => Promise<void>} stop ends the process (SIGTERM, then SIGKILL if it lingers)
 */

/** @param {ServerOptions} options @returns {Promise<RunningServer>} */
export async function startServer({ binary, port, dataDir, assetsDir, env }) {
  const origin = `http://127.0.0.1:${port}`;
  // The benchmark's load comes from one address: the per-address rate limits must not stop it.
  const args = ['serve', '--plain-http', '--request-limits', 'address=100000000,visitor=100000000', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir];
  if (assetsDir !== undefined) args.push('--assets-dir', assetsDir);

  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  // The pipes are always drained: a full pipe would stall a server that logs every request.
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  /** @type {Promise<number | null>} */
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => {
    running = false;
  });
  const spawnFailed = new Promise((_, reject) => child.once('error', reject));

  const stop = async () => {
    if (!running) return;
    child.kill('SIGTERM');
    const result = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => 'timeout')]);
    if (result === 'timeout') {
      child.kill('SIGKILL');
      await exited;
    }
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!running) {
      throw new Error(`vitrine ${args.join(' ')} exited before it was ready:\n${output}`);
    }
    const healthy = await Promise.race([
      fetch(`${origin}/healthz`).then((response) => response.ok, () => false),
      spawnFailed,
    ]);
    if (healthy) return { origin, stop };
    await sleep(200);
  }
  await stop();
  throw new Error(`vitrine ${args.join(' ')} did not answer /healthz within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
}
