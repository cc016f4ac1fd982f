//! Newsletter double opt-in in real Chromium: a sign-up on the demo home page mails a confirmation link (caught by a small SMTP sink), the link's page confirms, and the unsubscribe page (page type 300) works without JavaScript; axe finds nothing on either page.
//!
//! These pages need a server with mail configured, so this file starts its own server next to the shared one, on the next port, with its own fresh database.

import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

const webDir = fileURLToPath(new URL('..', import.meta.url));
const binary = process.env['VITRINE_BIN'] ? resolve(process.env['VITRINE_BIN']) : resolve(webDir, '../target/debug/vitrine');
const port = Number(process.env['VITRINE_E2E_PORT'] ?? '18080') + 1;
const base = `http://127.0.0.1:${port}`;

/** Mails as the sink received them, with quoted-printable soft breaks undone. */
const mails: string[] = [];

/** Enough SMTP for the server's client: greeting, EHLO, MAIL, RCPT, DATA, QUIT. */
function startSmtpSink(): Promise<{ server: Server; port: number }> {
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

let sink: Server | undefined;
let vitrine: ChildProcess | undefined;

test.beforeAll(async () => {
  const smtp = await startSmtpSink();
  sink = smtp.server;
  const dataDir = join(tmpdir(), `vitrine-e2e-newsletter-${port}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  vitrine = spawn(
    binary,
    ['serve', '--plain-http', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, '--public-url', base, '--smtp-url', `smtp://127.0.0.1:${smtp.port}`, '--newsletter-double-opt-in'],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, RUST_LOG: 'warn' } },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the newsletter server did not start on ${base}`);
    await new Promise((wait) => setTimeout(wait, 200));
  }
});

test.afterAll(async () => {
  vitrine?.kill('SIGTERM');
  await new Promise<void>((done) => (sink ? sink.close(() => done()) : done()));
});

function link(mail: string, path: string): string {
  const found = mail.match(new RegExp(`${base}${path}\\?token=[0-9a-f]{64}`));
  if (!found) throw new Error(`no ${path} link in the mail:\n${mail}`);
  return found[0];
}

test('a sign-up is confirmed from the mailed link and ended on the unsubscribe page', async ({ page, browser }) => {
  await page.goto(`${base}/`);
  const block = page.locator('[data-island="newsletter"]').first();
  await block.scrollIntoViewIfNeeded();
  await expect(block).toHaveAttribute('data-island-state', 'mounted');
  await block.getByLabel('Email address').fill('reader@example.com');
  await block.getByRole('button').click();
  await expect(block.locator('.newsletter__success')).toHaveText('Thank you for signing up.');

  await expect.poll(() => mails.length, { timeout: 15_000 }).toBe(1);
  const mail = mails[0]!;
  expect(mail).toContain('Subject: Please confirm your subscription');
  const confirm = link(mail, '/newsletter/confirm');
  const unsubscribe = link(mail, '/newsletter/unsubscribe');

  await page.goto(confirm);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your subscription');
  const confirmViolations = await axeViolations(page);
  expect(confirmViolations, formatViolations('confirmation page', confirmViolations)).toEqual([]);
  await page.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect(page.getByRole('status')).toHaveText('Thank you. Your subscription is confirmed.');

  await page.goto(unsubscribe);
  const violations = await axeViolations(page);
  expect(violations, formatViolations('unsubscribe page', violations)).toEqual([]);

  // The unsubscribe page needs no JavaScript: a mail client may open it anywhere.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(unsubscribe);
  await expect(plain.locator('body')).toHaveAttribute('data-page-type', '300');
  await expect(plain.getByRole('heading', { level: 1 })).toHaveText('Unsubscribe');
  await expect(plain.getByText('Stop receiving this newsletter at reader@example.com.')).toBeVisible();
  await plain.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(plain.getByRole('status')).toHaveText('You have been unsubscribed. You will receive no more mail from this list.');
  await noScript.close();
});
