import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { describe, it } from 'node:test';
import { loom, startServe } from '../helpers/cli.js';
import { httpsThroughProxy } from '../helpers/proxy-client.js';

describe('loom ca and serve --intercept', () => {
  const db = join(mkdtempSync(join(tmpdir(), 'loom-ca-cli-')), 'loom.db');

  it('explains itself', () => {
    const help = loom('ca', '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: loom ca \[--bundle\] \[--db PATH\|URL\]/);
    assert.match(help.stdout, /NODE_EXTRA_CA_CERTS/);
    assert.match(loom('--help').stdout, /\bca\b.*serve --intercept/);
    assert.match(loom('serve', '--help').stdout, /--intercept\s+also act as an HTTPS proxy/);
    assert.equal(loom('ca', '--frobnicate').code, 2);
  });

  it('prints the certificate that the intercepting server presents, beside the database', async () => {
    const printed = loom('ca', '--db', db);
    assert.equal(printed.code, 0, printed.stderr);
    const path = printed.stdout.trim();
    assert.equal(path, `${db}-ca/ca.pem`);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const serve = await startServe('--db', db, '--no-demo', '--intercept');
    try {
      assert.match(serve.output(), new RegExp(`HTTPS_PROXY=${serve.url} NODE_EXTRA_CA_CERTS=${path}`));
      const answer = await httpsThroughProxy(serve.url, readFileSync(path, 'utf8'), 'https://graph.facebook.com/v2.4/me');
      // Loom's own answer: the Graph error for a missing token, with Loom's version header.
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error.type, 'OAuthException');
      assert.equal(answer.headers['facebook-api-version'], 'v2.4');
    } finally {
      await serve.stop();
    }
  });

  it('writes a bundle of the system authorities plus its own', () => {
    const printed = loom('ca', '--bundle', '--db', db);
    assert.equal(printed.code, 0, printed.stderr);
    const bundle = readFileSync(printed.stdout.trim(), 'utf8');
    const own = readFileSync(`${db}-ca/ca.pem`, 'utf8');
    assert.ok(bundle.endsWith(own));
    const system = existsSync('/etc/ssl/certs/ca-certificates.crt') ? readFileSync('/etc/ssl/certs/ca-certificates.crt', 'utf8') : rootCertificates.join('\n');
    assert.ok(bundle.startsWith(system.trimEnd()));
    assert.ok((bundle.match(/BEGIN CERTIFICATE/g) ?? []).length > 50);
  });
});
