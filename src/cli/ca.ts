import { existsSync, readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { envDb } from '../config.js';
import { openCertificateAuthority, writeBundle } from '../intercept/certificate-authority.js';
import { authorityDirFor, INTERCEPTED_HOSTS } from '../intercept/intercepted-hosts.js';
import { parseCommandArgs } from './args.js';

/** Where Debian-family systems keep the authorities they trust, as one PEM file. */
const SYSTEM_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

export const caHelp = `Usage: loom ca [--bundle] [--db PATH|URL]

Prints the path of the public certificate (PEM) of the local certificate authority
that "loom serve --intercept" uses to answer for ${INTERCEPTED_HOSTS.join(', ')}.
The authority is created on first use, kept beside the database (a SQLite file
loom.db keeps it in loom.db-ca/, a PostgreSQL database in ./loom-ca/) with mode
0600, and may only vouch for those host names.

Trust it in a client with NODE_EXTRA_CA_CERTS (Node adds it to its own list).
REQUESTS_CA_BUNDLE and SSL_CERT_FILE replace the whole list instead: give them
the file that --bundle writes.

Options:
  --bundle       write the system's trusted authorities plus Loom's into one
                 file (ca-bundle.pem beside the certificate) and print its path
  --db PATH|URL  SQLite file or postgres:// URL of the server (default: $LOOM_DB or ./loom.db)
  -h, --help     show this help

Example:
  HTTPS_PROXY=http://127.0.0.1:8080 NODE_EXTRA_CA_CERTS=$(bin/loom ca) node my-app.js
`;

export async function caCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, bundle: { type: 'boolean' } });
  if (values.help) return void process.stdout.write(caHelp);
  const authority = await openCertificateAuthority(authorityDirFor(values.db ?? envDb()));
  const path = values.bundle ? writeBundle(authority, systemAuthorities()) : authority.certificatePath;
  process.stdout.write(`${path}\n`);
}

/** The system's own list where it has one, else the list built into Node. */
function systemAuthorities(): string {
  return existsSync(SYSTEM_BUNDLE) ? readFileSync(SYSTEM_BUNDLE, 'utf8') : rootCertificates.join('\n');
}
