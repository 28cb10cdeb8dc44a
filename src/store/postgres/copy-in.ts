import type pg from 'pg';

/** What a COPY sends through the driver's connection: its copy messages, beside a plain query. */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/** Bytes a COPY's rows are sent in, each one protocol message. */
const CHUNK_BYTES = 1 << 20;

/**
 * `COPY … FROM STDIN` of rows already in COPY's text format, on the client's connection: the
 * server parses them without statements, parameters or plans, the fastest way rows go in. The
 * driver runs it as any statement of its queue (a submittable), and answers once the server
 * has taken them, or failed to (a failure settles first, and the ready-for-query after it
 * changes nothing).
 */
export function copyIn(client: pg.ClientBase, sql: string, lines: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const submittable = {
      submit: (connection: unknown) => (connection as CopyConnection).query(sql),
      handleCopyInResponse: (connection: CopyConnection) => {
        let chunk: string[] = [];
        let bytes = 0;
        for (const line of lines) {
          chunk.push(line);
          bytes += line.length;
          if (bytes >= CHUNK_BYTES) {
            connection.sendCopyFromChunk(Buffer.from(chunk.join('')));
            chunk = [];
            bytes = 0;
          }
        }
        if (chunk.length > 0) connection.sendCopyFromChunk(Buffer.from(chunk.join('')));
        connection.endCopyFrom();
      },
      handleCommandComplete: () => {},
      // A lost connection sends no ready-for-query after its error: the error settles it at once.
      handleError: (error: Error) => reject(error),
      handleReadyForQuery: () => resolve(),
    };
    client.query(submittable);
  });
}

/** One value in COPY's text format: null as \N, and the characters that would end a field or a row escaped. */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  return String(value).replace(/[\\\n\r\t]/g, (character) => ESCAPES[character]!);
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
