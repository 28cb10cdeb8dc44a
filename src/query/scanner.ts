/**
 * A cursor over a `fields` expression. It knows the shape of names and where whitespace may be
 * skipped; it knows nothing of nesting, which is the parser's business.
 */
export class ExpressionScanner {
  /** Offset of the next character to read. */
  position = 0;

  constructor(readonly text: string) {}

  /** The character at the cursor, or undefined at the end of the text. */
  peek(): string | undefined {
    return this.position < this.text.length ? this.text[this.position] : undefined;
  }

  advance(): void {
    this.position += 1;
  }

  skipWhitespace(): void {
    this.position = this.afterWhitespace(this.position);
  }

  /** One run of name characters (`[A-Za-z0-9_]`), without dots; empty when none is at the cursor. */
  readWord(): string {
    const start = this.position;
    this.position = this.afterWord(start);
    return this.text.slice(start, this.position);
  }

  /**
   * A field name, dots included. A `.word` belongs to the name unless `(` follows it, because
   * then it is a modifier (`payment.subscriptions.limit(2)` → `payment.subscriptions`).
   */
  readName(): string {
    const start = this.position;
    let end = this.afterWord(start);
    while (end > start && this.text[end] === '.') {
      const wordEnd = this.afterWord(end + 1);
      if (wordEnd === end + 1) break;
      if (this.text[this.afterWhitespace(wordEnd)] === '(') break;
      end = wordEnd;
    }
    this.position = end;
    return this.text.slice(start, end);
  }

  /**
   * The raw text up to the next `terminator`, which is consumed too; undefined, with the cursor
   * left where it was, when the terminator never comes.
   */
  readUntil(terminator: string): string | undefined {
    const end = this.text.indexOf(terminator, this.position);
    if (end < 0) return undefined;
    const raw = this.text.slice(this.position, end);
    this.position = end + terminator.length;
    return raw;
  }

  private afterWord(from: number): number {
    let at = from;
    while (at < this.text.length && isWordCharacter(this.text.charCodeAt(at))) at += 1;
    return at;
  }

  private afterWhitespace(from: number): number {
    let at = from;
    while (at < this.text.length && isWhitespace(this.text.charCodeAt(at))) at += 1;
    return at;
  }
}

function isWordCharacter(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x5f // _
  );
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
