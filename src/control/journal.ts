/**
 * The request journal: the last requests the server answered, newest last, in a ring of bounded
 * size, so a test can see exactly what its client sent. Every value that could let someone act
 * as somebody (tokens, secrets, passwords, proofs, codes) is replaced before it is shown. The
 * ring keeps what it is given as it is: every request is recorded, few are ever listed, so the
 * redaction is paid on listing, not on the path of every request.
 */

export interface JournalEntry {
  /** Increases by one per entry in this process; `since` pages by it. */
  seq: number;
  /** Graph time of the request, Unix seconds. */
  time: number;
  method: string;
  path: string;
  params: Record<string, string>;
  status: number;
  error_code?: number;
  error_subcode?: number;
  duration_ms: number;
  app_id?: string;
  user_id?: string;
  trace_id: string;
  /** An operation of a batch (the batch itself has an entry of its own). */
  in_batch?: boolean;
}

export interface JournalFilter {
  limit?: number;
  /** Only entries whose seq is greater. */
  since?: number;
  app_id?: string;
  status?: number;
}

const REDACTED = '[redacted]';
/** Parameter names whose values are credentials, or could be turned into one. */
const SECRET_NAME = /token|secret|password|proof|code|signed|key|credential|session/i;
/** Values that look like credentials wherever they appear (`<app id>|<secret>` app tokens, long opaque strings). */
const SECRET_VALUE = /^\d{1,20}\|\S+$|^[A-Za-z0-9_-]{32,}$/;
/** Parameters whose long opaque values are paging cursors or Graph expressions, never credentials. */
const NEVER_SECRET = new Set(['after', 'before', 'fields', 'ids']);
const MAX_VALUE_LENGTH = 500;
/**
 * How much of a value is searched for embedded credentials: what is kept, and enough beyond it
 * for a credential that begins in the kept part to be found whole. A `fields` text of 500 kB is
 * never searched whole on the way to keeping its first 500 characters.
 */
const SCRUBBED_LENGTH = MAX_VALUE_LENGTH + 4000;
const MAX_PARAMS = 50;
export const DEFAULT_JOURNAL_SIZE = 1000;
export const MAX_JOURNAL_SIZE = 100_000;

function redactParams(params: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(params).slice(0, MAX_PARAMS)) {
    if (SECRET_NAME.test(name) || (!NEVER_SECRET.has(name) && SECRET_VALUE.test(value))) kept[name] = REDACTED;
    else {
      const scrubbed = scrubEmbedded(value.slice(0, SCRUBBED_LENGTH));
      kept[name] = scrubbed.length > MAX_VALUE_LENGTH || value.length > SCRUBBED_LENGTH ? `${scrubbed.slice(0, MAX_VALUE_LENGTH)}…` : scrubbed;
    }
  }
  return kept;
}

const SECRET_WORD = '[A-Za-z_]*(?:token|secret|password|proof|code|signed|key|credential|session)[A-Za-z_]*';
const EMBEDDED = [
  // `name=value` inside a URL or form text (a batch operation's relative_url or body). The name
  // starts where a run of letters starts: tried from every letter of a long run, the search
  // would take time growing with the square of the run.
  new RegExp(`(?<![A-Za-z_])(${SECRET_WORD}=)[^&"\\s]*`, 'gi'),
  // `"name":"value"` inside JSON text.
  new RegExp(`("${SECRET_WORD}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'),
  // An Authorization header inside a batch operation's headers.
  /(authorization\s*:\s*(?:OAuth|Bearer)\s+)[^"\s,\]]+/gi,
  // An app token, `<app id>|<secret>`, wherever it appears.
  /()\b\d{1,20}\|[A-Za-z0-9_-]{8,}/g,
];

/** Credentials inside a longer value: a batch names its operations' tokens in its JSON. */
function scrubEmbedded(value: string): string {
  return EMBEDDED.reduce((text, pattern) => text.replace(pattern, (_match, prefix: string) => `${prefix}${pattern === EMBEDDED[1] ? `"${REDACTED}"` : REDACTED}`), value);
}

export class Journal {
  /** Oldest first from `start` once the ring is full; in order until then. */
  private readonly entries: JournalEntry[] = [];
  private start = 0;
  private next = 1;

  constructor(readonly size: number = DEFAULT_JOURNAL_SIZE) {
    if (!Number.isSafeInteger(size) || size < 1 || size > MAX_JOURNAL_SIZE) throw new RangeError(`The journal size must be from 1 to ${MAX_JOURNAL_SIZE}, not ${size}`);
  }

  /** `entry.params` is kept as given (not copied): the caller never changes it afterwards. */
  record(entry: Omit<JournalEntry, 'seq'>): void {
    const kept = entry as JournalEntry;
    kept.seq = this.next++;
    if (this.entries.length < this.size) this.entries.push(kept);
    else {
      this.entries[this.start] = kept;
      this.start = (this.start + 1) % this.size;
    }
  }

  /** Oldest first; with a limit, the newest `limit` of those that pass the filter. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const ordered = this.start === 0 ? this.entries : [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)];
    const kept = ordered.filter(
      (entry) =>
        (filter.since === undefined || entry.seq > filter.since) &&
        (filter.app_id === undefined || entry.app_id === filter.app_id) &&
        (filter.status === undefined || entry.status === filter.status),
    );
    const shown = filter.limit === undefined ? kept : kept.slice(Math.max(0, kept.length - filter.limit));
    return shown.map((entry) => ({ ...entry, params: redactParams(entry.params) }));
  }

  clear(): void {
    this.entries.length = 0;
    this.start = 0;
  }
}
