import pg from 'pg';
import { quoteIdentifier, type PostgresLocation } from './connection.js';

/** The channel the auth tables' triggers notify on (see the migrations). */
const CHANNEL = 'loom_auth_changed';

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

  constructor(private readonly location: PostgresLocation) {}

  current(): number {
    if (this.listening) return this.version;
    void this.start();
    return ++this.version;
  }

  /**
   * A change this process committed: known here at once. Resolves once the listening connection
   * has made a round trip after the commit; the server delivers a pending notification before
   * answering, so by then it has gone out to every listening process, not only to this one.
   */
  async changed(): Promise<void> {
    this.version += 1;
    if (this.listening) await this.client?.query('SELECT 1').catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    await this.client?.end().catch(() => {});
  }

  /** Starts listening; resolves once it listens, or has failed to (it tries again on the next call). */
  start(): Promise<void> {
    if (this.client !== undefined || this.closed) return Promise.resolve();
    const client = new pg.Client({ connectionString: this.location.connectionString, application_name: 'loom-auth-listener' });
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.listening = false;
      this.version += 1;
      client.end().catch(() => {});
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload === this.location.schema) this.version += 1;
    });
    return client
      .connect()
      .then(() => client.query(`LISTEN ${quoteIdentifier(CHANNEL)}`))
      .then(() => {
        if (this.client !== client || this.closed) return void client.end().catch(() => {});
        // Whatever was cached before now may have missed a notification.
        this.version += 1;
        this.listening = true;
      }, lost);
  }
}
