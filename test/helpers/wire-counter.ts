/**
 * A TCP relay between Loom and PostgreSQL that counts the statements going through it: it reads
 * the client's side of the wire protocol and counts Execute ('E') and simple Query ('Q')
 * messages. Tests use it to see how many statements a request really sends. It also counts round
 * trips: the times the client sends work while none of its connections awaits an answer (a Sync
 * 'S' or Query 'Q' is answered by one ReadyForQuery 'Z'), so statements sent side by side on
 * several connections make one round trip, and each wait for an answer before the next makes one more.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface WireCounter {
  /** The location to open instead of `location`: the same database and schema, through the relay. */
  url: string;
  /** Statements sent since the last reset. */
  statements(): number;
  /** Round trips since the last reset: waits for the database that follow one another. */
  roundTrips(): number;
  reset(): void;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

export async function startWireCounter(location: string): Promise<WireCounter> {
  const target = new URL(location);
  let count = 0;
  let trips = 0;
  /** Syncs and Queries sent but not yet answered, over every connection. */
  let awaiting = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    sockets.add(client).add(upstream);
    for (const socket of [client, upstream]) socket.on('close', () => sockets.delete(socket)).on('error', () => {});
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.pipe(client);
    let answers = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      answers = Buffer.concat([answers, chunk]);
      for (;;) {
        if (answers.length < 5) break;
        const length = answers.readInt32BE(1) + 1;
        if (answers.length < length) break;
        if (answers[0] === 0x5a /* Z */) awaiting = Math.max(0, awaiting - 1);
        answers = answers.subarray(length);
      }
    });
    let pending = Buffer.alloc(0);
    let startup = true;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (startup) {
          // Startup-phase messages carry no type byte: a length, then a request code.
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          const code = pending.readInt32BE(4);
          pending = pending.subarray(length);
          if (code !== SSL_REQUEST && code !== GSS_REQUEST) startup = false;
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1) + 1;
        if (pending.length < length) break;
        const type = String.fromCharCode(pending[0]!);
        if (type === 'E' || type === 'Q') count += 1;
        if (type === 'S' || type === 'Q') {
          if (awaiting === 0) trips += 1;
          awaiting += 1;
        }
        pending = pending.subarray(length);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const relayed = new URL(location);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(typeof address === 'object' && address ? address.port : 0);
  return {
    url: relayed.toString(),
    statements: () => count,
    roundTrips: () => trips,
    reset: () => {
      count = 0;
      trips = 0;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
