//! A second `vitrine` server with mail configured, for the tests that follow mailed links:
//! a small SMTP sink catches what the server sends, and the server runs on its own port with
//! its own fresh database next to the shared one.

import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from '@playwright/test';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = fileURLToPath(new URL('../..', import.meta.url));
const binary = process.env['VITRINE_BIN'] ? resolve(process.env['VITRINE_BIN']) : resolve(webDir, '../target/debug/vitrine');

/** Enough SMTP for the server's client: greeting, EHLO, MAIL, RCPT, DATA, QUIT. Each mail
 * goes into `mails`, with quoted-printable soft breaks undone. */
export function startSmtpSink(mails: string[]): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let data = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push(data.replace(/=\n/g, '').replace(/=3D/g, '='));
            data = '';
            socket.write('250 queued\r\n');
          } else {
            data += `${line}\n`;
          }
          continue;
        }
        const command = line.toUpperCase();
        if (command.startsWith('EHLO') || command.startsWith('HELO')) socket.write('250-sink\r\n250 8BITMIME\r\n');
        else if (command === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (command === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((ready) => server.listen(0, '127.0.0.1', () => ready({ server, port: (server.address() as { port: number }).port })));
}

/** A running server with its sink; `stop` ends both. */
export interface MailServer {
  base: string;
  /** The server's data directory, for the command line to work on its database. */
  dataDir: string;
  stop: () => Promise<void>;
}

/** Starts `vitrine serve` on `port` (its data under a directory named by `name`), sending mail
 * to a sink that fills `mails`, with `extraArgs` added; resolves once it answers. */
export async function startMailServer(name: string, port: number, mails: string[], extraArgs: string[] = []): Promise<MailServer> {
  const smtp = await startSmtpSink(mails);
  const base = `http://127.0.0.1:${port}`;
  const dataDir = join(tmpdir(), `vitrine-e2e-${name}-${port}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const vitrine: ChildProcess = spawn(
    binary,
    ['serve', '--plain-http', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, '--public-url', base, '--smtp-url', `smtp://127.0.0.1:${smtp.port}`, ...extraArgs],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, RUST_LOG: 'warn' } },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the ${name} server did not start on ${base}`);
    await new Promise((wait) => setTimeout(wait, 200));
  }
  return {
    base,
    dataDir,
    stop: async () => {
      vitrine.kill('SIGTERM');
      await new Promise<void>((done) => smtp.server.close(() => done()));
    },
  };
}

/** The first link to `path` with a token in `mail`. */
export function mailedLink(mail: string, base: string, path: string): string {
  const found = mail.match(new RegExp(`${base}${path}\\?token=[0-9a-f]{64}`));
  if (!found) throw new Error(`no ${path} link in the mail:\n${mail}`);
  return found[0];
}

/** The newest mail to `to` once `count` of them have arrived in `mails`. */
export async function mailTo(mails: readonly string[], to: string, count: number): Promise<string> {
  const sent = () => mails.filter((mail) => mail.includes(`To: ${to}`));
  await expect.poll(() => sent().length, { timeout: 20_000 }).toBe(count);
  return sent().at(-1)!;
}
