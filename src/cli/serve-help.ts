import { DEFAULT_TIMEOUTS } from '../http/connection-limits.js';
import { INTERCEPTED_HOSTS } from '../intercept/intercepted-hosts.js';
import { DEFAULT_MEDIA_SWEEP } from '../media/media-sweeper.js';
import { SHORT_LIVED_SECONDS } from '../auth/tokens.js';
import { DEFAULT_WEBHOOK_SETTINGS } from '../webhooks/settings.js';
import { DEFAULT_MAX_REPLICA_LAG_S } from './serve-replicas.js';

export const serveHelp = `Usage: loom serve [--port N] [--host H] [--db PATH|URL] [--workers N] [--media-dir DIR] [--media-sweep-interval S]
                  [--public-url URL] [--profile-host URL] [--token-lifetime S] [--default-version V]
                  [--allow-private-photo-urls] [--intercept] [--log FILE|-|off] [--no-demo] [--schema FILE] [--admin-key KEY]
                  [--journal-size N] [--ephemeral] [--rate-limits] [--header-timeout S] [--body-timeout S]
                  [--min-body-rate B] [--allow-private-webhooks] [--webhook-window MS] [--webhook-retry-for S]
                  [--read-replica URL]... [--max-replica-lag S]

Serves the Graph API. On an empty database it first seeds the demo graph (and
prints the demo app's secret, this once), then prints the URL, a demo user access
token, the demo user's sign-in email and password (for the OAuth dialog) and
example requests.

Options:
  --port N            port to listen on (default: $PORT or 8080; 0: a free one)
  --host H            address to bind (default: 127.0.0.1; 0.0.0.0 for every interface)
  --db PATH|URL       SQLite file or postgres:// URL (default: $LOOM_DB or ./loom.db)
  --read-replica URL  a streaming replica of the PostgreSQL --db (repeat for several; default:
                      $LOOM_READ_REPLICAS, URLs separated by commas). Reads (GET) read the graph
                      on the replicas, in turn; writes, tokens, grants, settings, call counts and
                      the control API stay on the primary. A write is answered once each replica
                      has replayed it, so anyone reads their own writes through any process.
                      Every replica must answer at start
  --max-replica-lag S a replica that fails, or is more than S seconds behind the primary, is
                      skipped (its reads go to another replica or the primary) until it has
                      caught up again (default: ${DEFAULT_MAX_REPLICA_LAG_S}); each process tells
                      on standard error when it skips a replica, and why, and when it is back
  --workers N         serve from N processes sharing the port (default: 1); any of
                      them answers any request, best on PostgreSQL
  --media-dir DIR     where uploaded photos and videos are kept (default: $LOOM_MEDIA_DIR, else
                      a folder of the database's own: beside a SQLite file (loom.db keeps
                      loom.db-media), for PostgreSQL ./loom-media-HOST-PORT-DATABASE-SCHEMA).
                      A folder belongs to the first database that uses it (its owner.json
                      says which); serving another database on it is refused. A database
                      whose photos are in the ./loom-media earlier versions shared keeps it
  --media-sweep-interval S
                      seconds between sweeps of the media folder, which put in place photos
                      a crash left staged and remove files no photo uses once a minute old
                      (default: ${DEFAULT_MEDIA_SWEEP.everyMs / 1000}; the first runs at start)
  --public-url URL    base of the absolute links Loom writes (paging, metadata);
                      default: $LOOM_PUBLIC_URL, else the host each request names
  --profile-host URL  host of people's profile links (the user field link);
                      default: $LOOM_PROFILE_HOST, else https://www.facebook.com
  --token-lifetime S  seconds the user tokens of the sign-in dialog (and the printed
                      demo token) last; default: $LOOM_TOKEN_LIFETIME or ${SHORT_LIVED_SECONDS}
  --default-version V the API version of unversioned calls made without a token or by
                      an app that names none (bin/loom app create --api-version);
                      default: v2.4. Versioned paths (/v2.0/me) always answer in theirs
  --allow-private-photo-urls
                      let photo uploads by url fetch from loopback and private networks
                      (refused by default, so a token cannot probe the machines around Loom)
  --intercept         also act as an HTTPS proxy for clients that cannot change their
                      host (HTTPS_PROXY=http://HOST:PORT): a CONNECT to port 443 of
                      ${INTERCEPTED_HOSTS.join('\n                      ')}
                      is answered by Loom itself, with a certificate of its local
                      authority ("loom ca" prints its path); any other CONNECT is
                      refused with 403
  --log FILE|-|off    where the one JSON line per request goes: appended to FILE,
                      "-" for standard output, or "off"; default: off when standard
                      output is a terminal (it shows the banner), else standard output
  --no-demo           do not seed the demo graph into an empty database
  --schema FILE       serve your own node types: apply FILE to the database as
                      "loom schema apply" does (refusing to start on any problem in
                      it), then serve it; a database with an applied schema serves
                      that schema, and picks up later applies between requests
  --admin-key KEY     open the control API (/_loom/: reset, snapshots, clock, faults,
                      request journal) to requests from any address that send
                      "Authorization: Bearer KEY" (default: $LOOM_ADMIN_KEY; without
                      a key it answers this machine's own requests only)
  --journal-size N    requests the journal keeps, per process (default: 1000)
  --rate-limits       count calls per app, per user and per page over a rolling hour,
                      as the real service does (200 calls per hour per user of the app,
                      or "loom app update ID --calls-per-hour N"): every answer carries
                      X-App-Usage (a page token's also X-Page-Usage), and calls past
                      100% fail with code 4, 17 or 32
  --allow-private-webhooks
                      let webhook callbacks be on loopback and private networks (always
                      on for a server bound to a loopback address; never Loom's own port)
  --webhook-window MS changes within this many milliseconds go to a callback in one
                      POST per app and object (default: ${DEFAULT_WEBHOOK_SETTINGS.windowMs})
  --webhook-retry-for S
                      seconds of graph time a failing notification is retried for; then its
                      subscription turns inactive (default: ${DEFAULT_WEBHOOK_SETTINGS.retryFor}, a day)
  --ephemeral         serve a fresh temporary database (the demo graph, or one app
                      with --no-demo), print one JSON line {"url","app_id","app_secret"}
                      on stdout once ready, and delete the data on exit
  --header-timeout S  seconds a client may take to send a request's line and headers;
                      default: $LOOM_HEADER_TIMEOUT or ${DEFAULT_TIMEOUTS.headerMs / 1000}
  --body-timeout S    seconds a request's body may pause without a byte (an upload of any
                      length is never cut while bytes arrive); default: $LOOM_BODY_TIMEOUT or ${DEFAULT_TIMEOUTS.bodyIdleMs / 1000}
  --min-body-rate B   bytes a second a request's body must average from its head on, checked
                      once ${DEFAULT_TIMEOUTS.bodyRateGraceMs / 1000} seconds have passed, so a body trickled a byte at a time
                      is cut (0: no minimum); default: $LOOM_MIN_BODY_RATE or ${DEFAULT_TIMEOUTS.minBodyRate}. Each of
                      these limits answers 408 in the error envelope and closes the connection
  -h, --help          show this help
`;
