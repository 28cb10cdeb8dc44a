import { createHash } from 'node:crypto';
import type pg from 'pg';
import { pgDriver } from './pg-driver.js';
import { quoteIdentifier, type PostgresLocation } from './connection.js';

/** The channel the auth tables' triggers notify on (see the migrations). */
const CHANNEL = 'loom_auth_changed';
/** Asks every listener of a schema to answer once it has heard every notice sent before. */
const PING = 'loom_auth_ping';
/** A listener that does not answer a ping within this is not waited for any longer (a stopped process). */
const PING_TIMEOUT_MS = 2_000;

interface Ping {
  /** Backend ids of the listeners yet to answer. */
  waiting: Set<number>;
  done: () => void;
}

/**
 * The PostgreSQL store's auth version: a count of the notifications that the triggers on the
 * apps, tokens, grants and credentials tables send, followed on a connection of its own, so a
 * change committed by any process reaches this one without a query per request. The store starts
 * it when it opens. While it does not listen (before it has, or after its connection was lost),
 * every call answers a new number, so a cache keyed by it keeps nothing it could miss news of.
 */
export class AuthListener {
  private version = 0;
  private listening = false;
  private client: pg.Client | undefined;
  private closed = false;
  /** The start under way, or the last one: it always resolves, listening or not. */
  private starting: Promise<void> = Promise.resolve();
  private pings = 0;
  private readonly pending = new Map<number, Ping>();
  /** The listening connection's backend process id, which names the channel of its pongs. */
  private backend = 0;
  /** The listening connection's last query: the next one waits for it, as a connection runs one at a time. */
  private lastQuery: Promise<unknown> = Promise.resolve();
  /**
   * What every listener of this schema is named once it listens, so a process can tell which
   * ones to wait for. Hashed, since a schema name may be as long as a whole application name.
   */
  private readonly name: string;
  /** Told of every change heard, as it is heard (see onChange). */
  private readonly watchers: Array<() => void> = [];

  constructor(private readonly location: PostgresLocation) {
    this.name = `loom-listener ${createHash('sha256').update(location.schema).digest('hex').slice(0, 24)}`;
  }

  current(): number {
    if (this.listening) return this.version;
    void this.start();
    return ++this.version;
  }

  /**
   * A change this process committed: known here at once. Resolves once every process listening
   * on the schema has heard of it, so that no process answers its next request from what it
   * cached before. A notice reaches each listener at a moment of its own, so this one asks the
   * others (a ping on the same queue, which every listener receives after the change's notice)
   * and waits until each has answered; its own is not asked, as this process knows already, and
   * with no other listening nothing is sent.
   */
  async changed(): Promise<void> {
    this.moved();
    const client = this.client;
    if (!this.listening || client === undefined) return;
    await this.pingAll(client).catch(() => {});
  }

  /**
   * Calls `watcher` at once whenever a change is heard (of this process's own, of another's, or a
   * new start that may have missed some), before any request reads the version that follows it.
   */
  onChange(watcher: () => void): void {
    this.watchers.push(watcher);
  }

  private moved(): void {
    this.version += 1;
    for (const watcher of this.watchers) watcher();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    for (const ping of this.pending.values()) ping.done();
    // The driver never settles a connect that end() interrupts, and the start would wait for ever:
    // a connection under way is let finish first.
    await this.starting;
    await this.client?.end().catch(() => {});
  }

  /** Starts listening; resolves once it listens, or has failed to (it tries again on the next call). */
  start(): Promise<void> {
    if (this.client !== undefined || this.closed) return Promise.resolve();
    const client = new (pgDriver().Client)({ connectionString: this.location.connectionString, application_name: 'loom-auth-listener' });
    this.client = client;
    // The listening connection's backend, known once connected, names the channel of its pongs.
    let backend = 0;
    client.on('notification', (message) => this.heard(client, backend, message));
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.listening = false;
      this.version += 1;
      for (const ping of this.pending.values()) ping.done();
      client.end().catch(() => {});
    };
    client.on('error', lost);
    client.on('end', lost);
    this.starting = client
      .connect()
      .then(() => this.query<{ pid: number }>(client, 'SELECT pg_backend_pid() AS pid'))
      .then(({ rows }) => {
        backend = rows[0]!.pid;
        return this.query(client, `LISTEN ${quoteIdentifier(CHANNEL)}; LISTEN ${quoteIdentifier(PING)}; LISTEN ${quoteIdentifier(pongChannel(backend))}`);
      })
      // Named only once it listens: a process that finds it by its name may count on its answer.
      .then(() => this.query(client, `SET application_name = '${this.name}'`))
      .then(() => {
        // Closed meanwhile: close() ends the connection once this start has settled.
        if (this.closed) return;
        if (this.client !== client) return void client.end().catch(() => {});
        this.backend = backend;
        // Whatever was cached before now may have missed a notification.
        this.moved();
        this.listening = true;
      }, lost);
    return this.starting;
  }

  private heard(client: pg.Client, backend: number, { channel, payload = '' }: pg.Notification): void {
    if (channel === CHANNEL) {
      if (payload === this.location.schema) this.moved();
    } else if (channel === PING) {
      // Notices come in the order they were sent, so every change before the ping is counted by now.
      const [schema, pinger, sequence] = payload.split(' ');
      if (schema !== this.location.schema || Number(pinger) === backend) return;
      this.query(client, 'SELECT pg_notify($1, $2)', [pongChannel(Number(pinger)), `${backend} ${sequence}`]).catch(() => {});
    } else if (channel === pongChannel(backend)) {
      const [listener, sequence] = payload.split(' ').map(Number);
      const ping = this.pending.get(sequence!);
      ping?.waiting.delete(listener!);
      if (ping?.waiting.size === 0) ping.done();
    }
  }

  /** Pings every other listener of the schema that listens now, and resolves once each has answered. */
  private async pingAll(client: pg.Client): Promise<void> {
    const { rows } = await this.query<{ pid: number }>(client, LISTENERS, [this.name]);
    if (rows.length === 0) return;
    const sequence = ++this.pings;
    let ping!: Ping;
    const answered = new Promise<void>((resolve) => {
      const timer = setTimeout(() => ping.done(), PING_TIMEOUT_MS);
      ping = {
        waiting: new Set(rows.map((row) => row.pid)),
        done: () => {
          clearTimeout(timer);
          this.pending.delete(sequence);
          resolve();
        },
      };
    });
    this.pending.set(sequence, ping);
    try {
      await this.query(client, 'SELECT pg_notify($1, $2)', [PING, `${this.location.schema} ${this.backend} ${sequence}`]);
    } catch (error) {
      ping.done();
      throw error;
    }
    await answered;
  }

  private query<R extends pg.QueryResultRow>(client: pg.Client, query: string | pg.QueryConfig, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    const result = this.lastQuery.then(() => client.query<R>(query, values));
    this.lastQuery = result.catch(() => {});
    return result;
  }
}

/**
 * The other listeners of the schema: prepared once per listening connection, since planning a
 * query of pg_stat_activity costs about a millisecond, and every auth change asks it.
 */
const LISTENERS: pg.QueryConfig = {
  name: 'loom.listeners',
  text: 'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()',
};

/** The channel a listener hears the answers to its own pings on. */
function pongChannel(backend: number): string {
  return `loom_auth_pong_${backend}`;
}
