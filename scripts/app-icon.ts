/**
 * Draws the app icon (build/icon.png, 512 px: electron-builder makes every platform's icon from
 * it): a rounded indigo square with a white clock face whose hands read as a check mark, the
 * tray icon's clock at full size. Pixels are computed from shapes with 4×4 supersampling, so
 * edges are smooth without an image library.
 *   npx tsx scripts/app-icon.ts            writes build/icon.png
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

type Rgba = readonly [number, number, number, number];
const SIZE = 512;
const INDIGO: Rgba = [79, 70, 229, 255];
const WHITE: Rgba = [255, 255, 255, 255];

/** Distance from p to the segment a–b. */
const segmentDistance = (
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
) => {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
};

/** The colour at a point (in 0..1 units), or null outside the icon. */
const colourAt = (x: number, y: number): Rgba | null => {
  // Rounded square with a margin, as platform icon grids expect.
  const m = 0.06;
  const r = 0.2;
  const cx = Math.min(Math.max(x, m + r), 1 - m - r);
  const cy = Math.min(Math.max(y, m + r), 1 - m - r);
  if (Math.hypot(x - cx, y - cy) > r) return null;
  const d = Math.hypot(x - 0.5, y - 0.5);
  const ring = d > 0.27 && d < 0.33;
  // Hands: a short one down-left and a long one up-right from just below the centre: a tick.
  const hands =
    segmentDistance(x, y, 0.38, 0.5, 0.47, 0.6) < 0.035 ||
    segmentDistance(x, y, 0.47, 0.6, 0.64, 0.39) < 0.035;
  return ring || hands ? WHITE : INDIGO;
};

export const drawAppIcon = (size = SIZE): Buffer => {
  const samples = 4;
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let py = 0; py < size; py++) {
    const row = py * (size * 4 + 1);
    raw[row] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++)
        for (let sx = 0; sx < samples; sx++) {
          const c = colourAt(
            (px + (sx + 0.5) / samples) / size,
            (py + (sy + 0.5) / samples) / size,
          );
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += c[3];
        }
      const n = samples * samples;
      const covered = a / 255;
      const o = row + 1 + px * 4;
      // Colour averaged over the covered samples only (no dark fringe at the edge).
      raw[o] = covered ? Math.round(r / covered) : 0;
      raw[o + 1] = covered ? Math.round(g / covered) : 0;
      raw[o + 2] = covered ? Math.round(b / covered) : 0;
      raw[o + 3] = Math.round(a / n);
    }
  }
  return png(size, size, raw);
};

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer): number => {
  let c = 0xffffffff;
  for (const byte of buf) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const chunk = (type: string, data: Buffer): Buffer => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

const png = (width: number, height: number, raw: Buffer): Buffer => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

export const appIconPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'build', 'icon.png');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(appIconPath, drawAppIcon());
  console.log(`wrote ${appIconPath}`);
}
