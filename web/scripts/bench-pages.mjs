//! Benchmarks cached pages against nginx serving the same bytes: one page of the release
//! server (`--path`) and nginx (`gzip_static on`) with the server's own identity and gzip copies
//! of it as files, loaded in turn by wrk in one run, with a browser's `Accept-Encoding`, with
//! gzip only, and without compression. The default page is `/shipping`, a page no experiment
//! runs on: the demo's home page runs an A/B test, so each cookieless request there is a new
//! visitor, assigned a variant, answered `private` and counted, which is not a cached page.
//
// Usage: node scripts/bench-pages.mjs [--out FILE] [--skip-build] [--check] [--duration 10]
//        [--warmup 2] [--connections 50] [--threads 2] [--rounds 1] [--port 18091]
//        [--nginx-port 18092] [--bin PATH] [--path /shipping]
// The markdown report goes to stdout (and to --out); progress goes to stderr. Needs `wrk` and
// nginx from the system (Debian: `apt-get install -y wrk nginx-light`). nginx-light has no
// brotli module, so nginx answers the browser's header with gzip while Vitrine answers brotli.

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildRelease } from './bench/build.mjs';
import { startServer } from './bench/server.mjs';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(webDir, '..');

const { values: options } = parseArgs({
  options: {
    out: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    threads: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '1' },
    path: { type: 'string', default: '/shipping' },
    port: { type: 'string', default: '18091' },
    'nginx-port': { type: 'string', default: '18092' },
    bin: { type: 'string', default: process.env.VITRINE_BIN ?? resolve(repoDir, 'target/release/vitrine') },
  },
});
const pagePath = options.path.startsWith('/') ? options.path : `/${options.path}`;
const load = {
  duration: Number(options.duration),
  warmup: Number(options.warmup),
  connections: Number(options.connections),
  threads: Number(options.threads),
  rounds: Math.max(1, Number(options.rounds)),
};

/** What a browser sends (Chromium and Firefox), what a gzip-only client sends, and nothing. */
const SCENARIOS = [
  { name: 'browser', acceptEncoding: 'gzip, deflate, br' },
  { name: 'gzip only', acceptEncoding: 'gzip' },
  { name: 'uncompressed', acceptEncoding: undefined },
];
/** Vitrine's share of nginx's requests per second: the target, and the floor under it. */
const COMPRESSED_TARGET = 0.8;
const COMPRESSED_FLOOR = 0.5;
/** Before cached copies, uncompressed pages reached 0.8-1.0x nginx; they must not fall below. */
const UNCOMPRESSED_TARGET = 0.8;

const log = (message) => process.stderr.write(`bench-pages: ${message}\n`);

/** The first of `names` found on PATH or in the system's sbin folders. */
export function findProgram(...names) {
  const folders = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const name of names) {
    for (const folder of folders) {
      const path = join(folder, name);
      if (folder !== '' && existsSync(path)) return path;
    }
  }
  return undefined;
}

/**
 * A GET whose body comes back exactly as sent: `fetch` would decompress it.
 * @param {string} url @param {Record<string, string>} headers
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, body: Buffer }>}
 */
function rawGet(url, headers) {
  return new Promise((done, fail) => {
    const call = request(url, { headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', fail);
    });
    call.on('error', fail);
    call.end();
  });
}

/** The page's copies, once the cache has made them (the first visit renders, then compresses). */
async function pageCopies(origin) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const gzip = await rawGet(`${origin}${pagePath}`, { 'accept-encoding': 'gzip' });
    if (gzip.headers.etag !== undefined && gzip.headers['content-encoding'] === 'gzip') {
      const identity = await rawGet(`${origin}${pagePath}`, {});
      const brotli = await rawGet(`${origin}${pagePath}`, { 'accept-encoding': 'br' });
      if (!gunzipSync(gzip.body).equals(identity.body)) throw new Error('the gzip copy is not the page');
      if (!brotliDecompressSync(brotli.body).equals(identity.body)) throw new Error('the brotli copy is not the page');
      return { identity: identity.body, gzip: gzip.body, brotli: brotli.body };
    }
    await sleep(100);
  }
  throw new Error(`${pagePath} never got its compressed copies`);
}

/** An nginx configuration serving `root` on `port`, precompressed copies first, as a CDN origin would. */
function nginxConfig(dir, root, port) {
  const temp = (name) => join(dir, name);
  return `worker_processes ${cpus().length};
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
daemon off;
events { worker_connections 4096; }
http {
  access_log off;
  types { text/html html; }
  default_type text/html;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 65;
  keepalive_requests 10000000;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  server {
    listen 127.0.0.1:${port};
    root ${root};
    index index.html;
    gzip_static on;
    gzip_vary on;
    etag on;
  }
}
`;
}

/** Starts nginx in the foreground (so it stops with its PID) and waits until it answers. */
export async function startNginx(nginx, dir, root, port) {
  const config = join(dir, 'nginx.conf');
  writeFileSync(config, nginxConfig(dir, root, port));
  const child = spawn(nginx, ['-e', join(dir, 'error.log'), '-p', dir, '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk) => {
    output += chunk.toString();
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (exited) throw new Error(`nginx exited before it was ready:\n${output}${readLog(join(dir, 'error.log'))}`);
    const answered = await rawGet(`${origin}/`, {}).then(
      (answer) => answer.status > 0,
      () => false,
    );
    if (answered) {
      const stop = async () => {
        if (exited) return;
        child.kill('SIGTERM');
        while (!exited) await sleep(50);
      };
      return { origin, stop };
    }
    await sleep(100);
  }
  // TERM, not KILL: the master stops its workers on the way out.
  child.kill('SIGTERM');
  throw new Error(`nginx did not answer within 10 s:\n${output}${readLog(join(dir, 'error.log'))}`);
}

function readLog(path) {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

/**
 * Runs wrk and resolves to its output. Asynchronously: while it runs, this process must keep
 * draining the server's log pipe, or a server that logs every request stalls on a full pipe.
 */
function wrkOutput(wrk, args) {
  return new Promise((done, fail) => {
    const child = spawn(wrk, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString();
    });
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done(stdout) : fail(new Error(`wrk ${args.join(' ')} failed:\n${stderr}`))));
  });
}

/** wrk's figures of one run. */
export async function runWrk(wrk, url, acceptEncoding, seconds) {
  const args = ['-t', String(load.threads), '-c', String(load.connections), '-d', `${seconds}s`, '--latency'];
  if (acceptEncoding !== undefined) args.push('-H', `Accept-Encoding: ${acceptEncoding}`);
  args.push(url);
  const text = await wrkOutput(wrk, args);
  const number = (pattern) => Number(pattern.exec(text)?.[1] ?? NaN);
  const latency = (percent) => {
    const match = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s)\\b`, 'm').exec(text);
    if (match === null) return NaN;
    const scale = { us: 0.001, ms: 1, s: 1000 }[match[2]] ?? NaN;
    return Number(match[1]) * scale;
  };
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const errors = socketErrors === null ? 0 : socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0);
  const refused = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50: latency(50),
    p99: latency(99),
    failures: errors + (refused === null ? 0 : Number(refused[1])),
  };
}

/** The median of the rounds' requests per second, with the latencies of that round. */
function median(runs) {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)], failures: runs.reduce((sum, run) => sum + run.failures, 0) };
}

/** What each server answers a scenario with, checked before it is measured. */
async function servedAs(origin, acceptEncoding) {
  const answer = await rawGet(`${origin}${pagePath}`, acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding });
  if (answer.status !== 200) throw new Error(`${origin}${pagePath} answered ${answer.status}`);
  return { encoding: answer.headers['content-encoding'] ?? 'identity', bytes: answer.body.length };
}

function verdict(ratio, scenario) {
  if (scenario.acceptEncoding === undefined) return ratio >= UNCOMPRESSED_TARGET ? 'met' : 'missed';
  if (ratio >= COMPRESSED_TARGET) return 'met';
  return ratio >= COMPRESSED_FLOOR ? `above the ${COMPRESSED_FLOOR}x floor only` : 'missed';
}

function report(setup, rows) {
  const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
  const lines = [
    `### Cached pages against nginx`,
    '',
    `wrk, ${setup.threads} threads, ${setup.connections} connections, ${setup.duration} s per run after a ${setup.warmup} s warm-up, ` +
      `${setup.rounds} round(s) (median), both servers and wrk on one ${setup.machine} machine; load average ${setup.loadBefore} before, ${setup.loadAfter} after. ` +
      `nginx ${setup.nginxVersion} with \`gzip_static on\` serves the server's own identity and gzip bytes of \`${pagePath}\` as files.`,
    '',
    '| Accept-Encoding | Vitrine sends | Vitrine requests/s | p50 / p99 | nginx sends | nginx requests/s | p50 / p99 | Vitrine / nginx | target |',
    '| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | --- |',
  ];
  for (const row of rows) {
    const target = row.scenario.acceptEncoding === undefined ? `at least ${UNCOMPRESSED_TARGET}x` : `at least ${COMPRESSED_TARGET}x (floor ${COMPRESSED_FLOOR}x)`;
    lines.push(
      `| ${row.scenario.acceptEncoding === undefined ? '(none)' : `\`${row.scenario.acceptEncoding}\``} ` +
        `| ${row.vitrine.encoding}, ${row.vitrine.bytes} B | ${fixed(row.vitrine.requestsPerSecond, 0)} | ${fixed(row.vitrine.p50, 2)} / ${fixed(row.vitrine.p99, 2)} ms ` +
        `| ${row.nginx.encoding}, ${row.nginx.bytes} B | ${fixed(row.nginx.requestsPerSecond, 0)} | ${fixed(row.nginx.p50, 2)} / ${fixed(row.nginx.p99, 2)} ms ` +
        `| ${fixed(row.ratio, 2)}x | ${target}: ${row.verdict} |`,
    );
  }
  const failures = rows.reduce((sum, row) => sum + row.vitrine.failures + row.nginx.failures, 0);
  lines.push('', `Failed requests (socket errors and non-2xx answers) over all runs: ${failures}.`, '');
  return lines.join('\n');
}

async function main() {
  const wrk = findProgram('wrk');
  const nginx = findProgram('nginx');
  if (wrk === undefined || nginx === undefined) {
    const missing = [wrk === undefined ? 'wrk' : undefined, nginx === undefined ? 'nginx' : undefined].filter(Boolean).join(' and ');
    log(`${missing} not found: install the system packages, e.g. \`sudo apt-get install -y wrk nginx-light\` on Debian or Ubuntu`);
    process.exit(2);
  }
  if (!options['skip-build']) buildRelease({ webDir, repoDir, log });
  const nginxVersion = (/nginx\/([\d.]+)/.exec(spawnSync(nginx, ['-v'], { encoding: 'utf8' }).stderr) ?? [])[1] ?? 'unknown';

  const workDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-pages-'));
  const dataDir = join(workDir, 'data');
  const root = join(workDir, 'root');
  mkdirSync(dataDir);
  mkdirSync(root);
  // nginx started by root reads files as an unprivileged worker user.
  chmodSync(workDir, 0o755);
  const binary = resolve(options.bin);
  // nginx runs with its access log off, so Vitrine logs no line per request either (RUST_LOG
  // set by the caller wins): the two servers then do the same work per request.
  const server = await startServer({ binary, port: Number(options.port), dataDir, env: { RUST_LOG: process.env.RUST_LOG ?? 'warn' } });
  let nginxServer;
  try {
    const copies = await pageCopies(server.origin);
    // `/` is nginx's index file; another page is a file named as its path, served as HTML by
    // the configuration's default type, with its `.gz` copy beside it.
    const file = pagePath === '/' ? join(root, 'index.html') : join(root, ...pagePath.split('/').filter(Boolean));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, copies.identity);
    writeFileSync(`${file}.gz`, copies.gzip);
    nginxServer = await startNginx(nginx, workDir, root, Number(options['nginx-port']));
    const loadBefore = loadavg().map((value) => value.toFixed(2)).join(', ');
    const rows = [];
    for (const scenario of SCENARIOS) {
      const vitrineAs = await servedAs(server.origin, scenario.acceptEncoding);
      const nginxAs = await servedAs(nginxServer.origin, scenario.acceptEncoding);
      const runs = { vitrine: [], nginx: [] };
      for (let round = 0; round < load.rounds; round += 1) {
        // Alternate which goes first, so a change in the machine's load falls on both.
        const order = round % 2 === 0 ? ['vitrine', 'nginx'] : ['nginx', 'vitrine'];
        for (const name of order) {
          const origin = name === 'vitrine' ? server.origin : nginxServer.origin;
          log(`${scenario.name}: ${name}, round ${round + 1} of ${load.rounds}`);
          if (load.warmup > 0) await runWrk(wrk, `${origin}${pagePath}`, scenario.acceptEncoding, load.warmup);
          runs[name].push(await runWrk(wrk, `${origin}${pagePath}`, scenario.acceptEncoding, load.duration));
        }
      }
      const vitrine = { ...vitrineAs, ...median(runs.vitrine) };
      const nginxResult = { ...nginxAs, ...median(runs.nginx) };
      const ratio = vitrine.requestsPerSecond / nginxResult.requestsPerSecond;
      rows.push({ scenario, vitrine, nginx: nginxResult, ratio, verdict: verdict(ratio, scenario) });
    }
    const loadAfter = loadavg().map((value) => value.toFixed(2)).join(', ');
    const machine = `${cpus().length}-core ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`;
    const text = report({ ...load, machine, nginxVersion, loadBefore, loadAfter }, rows);
    process.stdout.write(`${text}\n`);
    if (options.out !== undefined) writeFileSync(options.out, `${text}\n`);
    if (options.check) {
      const missed = rows.filter((row) => row.verdict === 'missed');
      if (missed.length > 0) {
        log(`missed: ${missed.map((row) => row.scenario.name).join(', ')}`);
        process.exitCode = 1;
      }
    }
  } finally {
    await nginxServer?.stop();
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

// Run as a script; imported (to try a part of it), it only defines its functions.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
