/**
 * Small real video files, built byte by byte: the containers' headers as the formats define them
 * (ISO base media boxes for MP4 and QuickTime, EBML elements for WebM), with a little payload.
 */

function box(type: string, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** `ftyp`: the major brand, a version, and the brands the file is compatible with. */
function ftyp(brand: string): Buffer {
  return box('ftyp', Buffer.from(brand, 'latin1'), Buffer.alloc(4), Buffer.from(`${brand}mp41`, 'latin1'));
}

/** `mvhd` version 0 (32-bit times) or 1 (64-bit): timescale units a second, duration in those units. */
function mvhd(timescale: number, duration: number, version: 0 | 1): Buffer {
  const times = version === 1 ? 16 : 8;
  const body = Buffer.alloc(4 + times + 4 + (version === 1 ? 8 : 4) + 80);
  body[0] = version;
  body.writeUInt32BE(timescale, 4 + times);
  if (version === 1) body.writeBigUInt64BE(BigInt(duration), 4 + times + 4);
  else body.writeUInt32BE(duration, 4 + times + 4);
  return box('mvhd', body);
}

function payload(seed: number, size = 64): Buffer {
  return Buffer.from(Array.from({ length: size }, (_, i) => (seed * 31 + i) % 256));
}

export interface IsoOptions {
  /** Seconds the movie header records; no `moov` at all when absent. */
  seconds?: number;
  timescale?: number;
  version?: 0 | 1;
  seed?: number;
  /** Write the media data first, in a box with a 64-bit size, so the movie header follows it. */
  largeMdat?: boolean;
}

/** An MP4 file: `ftyp` (brand isom), an `mdat`, and `moov` with its `mvhd`. */
export function mp4Bytes(options: IsoOptions = {}): Buffer {
  return isoFile(ftyp('isom'), options);
}

/** A QuickTime movie: `ftyp` with the `qt  ` brand. */
export function quickTimeBytes(options: IsoOptions = {}): Buffer {
  return isoFile(ftyp('qt  '), options);
}

function isoFile(head: Buffer, { seconds, timescale = 600, version = 0, seed = 1, largeMdat = false }: IsoOptions): Buffer {
  const moov = seconds === undefined ? [] : [box('moov', mvhd(timescale, Math.round(seconds * timescale), version))];
  return Buffer.concat([head, ...(largeMdat ? [largeBox('mdat', payload(seed))] : [box('mdat', payload(seed))]), ...moov]);
}

/** A box whose size is written in the 64-bit field after its type (size 1), as files past 4 GiB need. */
function largeBox(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32BE(1, 0);
  header.write(type, 4, 'latin1');
  header.writeBigUInt64BE(BigInt(16 + body.length), 8);
  return Buffer.concat([header, body]);
}

/** An EBML element: its id as written, its size as a one-byte (or eight-byte) length. */
function element(id: number[], ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  const size = body.length < 127 ? Buffer.from([0x80 | body.length]) : Buffer.concat([Buffer.from([0x01]), bigEndian(body.length, 7)]);
  return Buffer.concat([Buffer.from(id), size, body]);
}

function bigEndian(value: number, width: number): Buffer {
  const bytes = Buffer.alloc(width);
  bytes.writeUIntBE(value, width - 6 > 0 ? width - 6 : 0, Math.min(width, 6));
  return bytes;
}

/**
 * A WebM file: the EBML header (DocType webm) and a Segment whose Info may record a duration;
 * with `live`, the Segment's size is unknown (all ones), as a live recording writes it.
 */
export function webmBytes(options: { seconds?: number; seed?: number; live?: boolean } = {}): Buffer {
  const header = element([0x1a, 0x45, 0xdf, 0xa3], element([0x42, 0x86], Buffer.from([1])), element([0x42, 0x82], Buffer.from('webm', 'latin1')));
  const duration = Buffer.alloc(8);
  // In timecode units of one millisecond (TimecodeScale 1,000,000 ns).
  if (options.seconds !== undefined) duration.writeDoubleBE(options.seconds * 1000);
  const info = element(
    [0x15, 0x49, 0xa9, 0x66],
    element([0x2a, 0xd7, 0xb1], Buffer.from([0x0f, 0x42, 0x40])),
    ...(options.seconds === undefined ? [] : [element([0x44, 0x89], duration)]),
  );
  const cluster = element([0x1f, 0x43, 0xb6, 0x75], payload(options.seed ?? 2, 32));
  const segmentId = [0x18, 0x53, 0x80, 0x67];
  if (options.live) return Buffer.concat([header, Buffer.from(segmentId), Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), info, cluster]);
  return Buffer.concat([header, element(segmentId, info, cluster)]);
}
