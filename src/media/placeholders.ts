/**
 * Drawn images for what has no uploaded bytes: the demo graph's photos and people without a
 * profile picture. SVG keeps them tiny and sharp at any size.
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
