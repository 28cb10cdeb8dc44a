/**
 * Drawn images for what has no uploaded bytes: the demo graph's photos and people without a
 * profile picture. SVG keeps them tiny and sharp at any size. The demo graph's videos get a
 * placeholder clip the same way.
 */

/** Calm colours; a photo always gets the same one, so a page of placeholders is not a flicker. */
const TINTS = ['#7aa6c2', '#9bbf8a', '#d9a96a', '#c48e9e', '#8f95c9', '#6fb3a8', '#c7b27a'];

export function placeholderSvg(photoId: number, width: number, height: number): string {
  const tint = TINTS[photoId % TINTS.length]!;
  const w = Math.max(1, Math.min(width, 4096));
  const h = Math.max(1, Math.min(height, 4096));
  // A horizon and a sun: reads as "a photo" at thumbnail size.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 100 75" preserveAspectRatio="xMidYMid slice">
<rect width="100" height="75" fill="${tint}"/>
<circle cx="72" cy="22" r="9" fill="#ffffff" fill-opacity="0.55"/>
<path d="M0 75 L0 52 L28 34 L52 54 L70 42 L100 60 L100 75 Z" fill="#000000" fill-opacity="0.18"/>
</svg>
`;
}

export function silhouetteSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 100 100">
<rect width="100" height="100" fill="#d8dde4"/>
<circle cx="50" cy="38" r="18" fill="#ffffff"/>
<path d="M16 100 C16 72 32 62 50 62 C68 62 84 72 84 100 Z" fill="#ffffff"/>
</svg>
`;
}

/**
 * An MP4 file with no pictures: `ftyp` and a movie header (`moov/mvhd`) recording the duration,
 * which is what a client reading a video's container learns from it (and what an upload is checked
 * by). Loom encodes no frames.
 */
export function placeholderMp4(milliseconds: number): Buffer {
  const header = Buffer.alloc(100);
  // Version 0, no flags, creation and modification times of zero; then the timescale (units a
  // second), the duration in them, the rate (1.0), the volume (1.0) and the identity matrix.
  header.writeUInt32BE(1000, 12);
  header.writeUInt32BE(Math.min(milliseconds, 0xffffffff), 16);
  header.writeUInt32BE(0x00010000, 20);
  header.writeUInt16BE(0x0100, 24);
  header.writeUInt32BE(0x00010000, 36);
  header.writeUInt32BE(0x00010000, 52);
  header.writeUInt32BE(0x40000000, 68);
  header.writeUInt32BE(1, 96);
  const brands = Buffer.from('isom\0\0\x02\0isomiso2mp41', 'latin1');
  return Buffer.concat([box('ftyp', brands), box('moov', box('mvhd', header))]);
}

function box(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}
