/** FNV-1a over a text's UTF-16 code units, as a 32-bit integer: cheap, and spread well enough for keys and seeds. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash;
}
