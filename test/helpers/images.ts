import { crc32, deflateSync } from 'node:zlib';

/** A real PNG of the given size, each pixel a shade from `seed`, so two images differ in their bytes. */
export function pngBytes(width: number, height: number, seed = 1): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set([(seed * 37 + x) % 256, (seed * 11 + y) % 256, seed % 256], 1 + x * 3);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real PNG of `bytes` bytes (at least a small image's): a private chunk that decoders skip fills it out. */
export function pngOfSize(bytes: number): Buffer {
  const image = pngBytes(8, 8);
  const end = image.length - 12;
  const filler = Math.max(0, bytes - image.length - 12);
  return Buffer.concat([image.subarray(0, end), chunk('loOm', Buffer.alloc(filler, 0x5a)), image.subarray(end)]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
