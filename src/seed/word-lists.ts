/**
 * The seed's lists of words and phrases, written as plain text rather than as arrays of quoted
 * strings: `words` for lists of single words, `phrases` for lists whose entries have spaces.
 */

/** The words of a text, split at any white space. */
export function words(text: string): readonly string[] {
  return text.trim().split(/\s+/);
}

/** The phrases of a text, each on a line of its own or set apart from the next by ` | `. */
export function phrases(text: string): readonly string[] {
  return text
    .trim()
    .split('\n')
    .flatMap((line) => line.split(' | '))
    .map((phrase) => phrase.trim());
}
