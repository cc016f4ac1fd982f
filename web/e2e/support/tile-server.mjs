//! A local tile server for the browser tests: `GET /tiles/{z}/{x}/{y}.png` answers a 256-pixel PNG
//! drawn here, in a colour of its coordinates with a darker grid line, so the map tests never reach
//! a real tile server. `GET /` answers 200 for the readiness check. Usage: node tile-server.mjs PORT

import { createServer } from 'node:http';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 256x256 RGB PNG: `colour` everywhere but the top and left edges, drawn darker. */
function tile([r, g, b]) {
  const side = 256;
  const rows = [];
  for (let y = 0; y < side; y += 1) {
    const row = Buffer.alloc(1 + side * 3);
    for (let x = 0; x < side; x += 1) {
      const edge = x === 0 || y === 0 ? 0.6 : 1;
      row.set([Math.round(r * edge), Math.round(g * edge), Math.round(b * edge)], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const port = Number(process.argv[2] ?? '15104');
createServer((request, response) => {
  const match = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(request.url ?? '');
  if (request.url === '/') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('tiles');
  } else if (match) {
    const [z, x, y] = match.slice(1).map(Number);
    const png = tile([150 + ((x * 37) % 100), 170 + ((y * 53) % 80), 120 + z * 5]);
    response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=3600' }).end(png);
  } else {
    response.writeHead(404).end();
  }
}).listen(port, '127.0.0.1');
