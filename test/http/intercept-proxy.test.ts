import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { X509Certificate } from 'node:crypto';
import { Clock } from '../../src/clock/clock.js';
import { openCertificateAuthority, type CertificateAuthority } from '../../src/intercept/certificate-authority.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { connectThrough, httpsThroughProxy } from '../helpers/proxy-client.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the intercepting proxy', () => {
  let fixture: Fixture;
  let server: TestServer;
  let plain: TestServer;
  let authority: CertificateAuthority;
  let authorityDir: string;
  /** A listener that must never see a connection: the proxy opens none for a refused target. */
  let bystander: Server;
  let bystanderConnections = 0;
  before(async () => {
    fixture = await buildFixture();
    authorityDir = join(mkdtempSync(join(tmpdir(), 'loom-ca-')), 'ca');
    authority = await openCertificateAuthority(authorityDir);
    // The loopback-only host list, as `loom serve` sets it: intercepted requests pass it anyway.
    server = await startServer(fixture.store, {
      clock: Clock.frozenAt(fixture.now),
      allowedHosts: ['localhost', '127.0.0.1'],
      intercept: await authority.issueHostCredentials(),
    });
    plain = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now) });
    bystander = createServer((socket) => {
      bystanderConnections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => bystander.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await server.close();
    await plain.close();
    await new Promise((resolve) => bystander.close(resolve));
    await fixture.store.close();
  });

  it('keeps its authority private, reuses it, and constrains it to the Graph hosts', async () => {
    assert.equal(statSync(join(authorityDir, 'ca-key.pem')).mode & 0o777, 0o600);
    assert.equal(statSync(authority.certificatePath).mode & 0o777, 0o600);
    assert.equal(statSync(authorityDir).mode & 0o777, 0o700);
    const again = await openCertificateAuthority(authorityDir);
    assert.equal(again.certificatePem, authority.certificatePem);
    const certificate = new X509Certificate(readFileSync(authority.certificatePath));
    assert.equal(certificate.ca, true);
    // The host certificate names exactly the three hosts, and is signed by the authority.
    const host = new X509Certificate((await authority.issueHostCredentials()).cert);
    assert.equal(host.subjectAltName, 'DNS:graph.facebook.com, DNS:graph.beta.facebook.com, DNS:graph-video.facebook.com');
    assert.ok(host.verify(certificate.publicKey));
  });

  it('answers HTTPS for graph.facebook.com itself, with links back through the proxy', async () => {
    const answer = await httpsThroughProxy(
      server.url,
      authority.certificatePem,
      `https://graph.facebook.com/v2.4/me/friends?limit=1&access_token=${fixture.aliceToken}`,
    );
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.data.length, 1);
    const next: string = answer.body.paging.next;
    assert.match(next, /^https:\/\/graph\.facebook\.com\/v2\.4\/\d+\/friends\?/);
    const following = await httpsThroughProxy(server.url, authority.certificatePem, next);
    assert.equal(following.status, 200, following.text);
    assert.notEqual(following.body.data[0].id, answer.body.data[0].id);
  });

  it('answers the beta and video hosts too, and their photo links point at the Graph host', async () => {
    const me = await httpsThroughProxy(server.url, authority.certificatePem, `https://graph.beta.facebook.com/v2.4/me?fields=name&access_token=${fixture.aliceToken}`);
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.name, 'Alice Arden');
    const photo = await httpsThroughProxy(
      server.url,
      authority.certificatePem,
      `https://graph-video.facebook.com/v2.4/${fixture.photos[0]}?fields=source&access_token=${fixture.aliceToken}`,
    );
    assert.equal(photo.status, 200, photo.text);
    assert.match(photo.body.source, /^https:\/\/graph\.facebook\.com\/media\//);
    const image = await httpsThroughProxy(server.url, authority.certificatePem, photo.body.source);
    assert.equal(image.status, 200);
  });

  it('is not trusted by a client that does not trust its authority', async () => {
    await assert.rejects(
      httpsThroughProxy(server.url, (await openCertificateAuthority(join(mkdtempSync(join(tmpdir(), 'loom-ca-')), 'other'))).certificatePem, 'https://graph.facebook.com/v2.4/me'),
      /certificate/i,
    );
  });

  it('refuses a CONNECT to any other host or port with 403, opening no connection', async () => {
    const port = new URL(server.url).port;
    const targets = [
      `127.0.0.1:${(bystander.address() as { port: number }).port}`,
      `localhost:${(bystander.address() as { port: number }).port}`,
      `127.0.0.1:${port}`,
      '10.0.0.1:443',
      '[::1]:443',
      'www.facebook.com:443',
      'graph.facebook.com.evil.example:443',
      'graph.facebook.com:80',
      'graph.facebook.com:8443',
      'graph.facebook.com',
    ];
    for (const target of targets) {
      const answer = await connectThrough(server.url, target);
      assert.equal(answer.status, 403, target);
      const body = JSON.parse(answer.body);
      assert.equal(body.error.code, 100, target);
      assert.match(body.error.message, /only answers CONNECT for graph\.facebook\.com:443/);
    }
    assert.equal(bystanderConnections, 0);
  });

  it('keeps refusing the Graph host names on plain HTTP, and a server without --intercept opens no tunnel', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = request(`${server.url}/v2.4/me?access_token=${fixture.aliceToken}`, { headers: { host: 'graph.facebook.com' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    assert.equal(status, 421);
    await assert.rejects(connectThrough(plain.url, 'graph.facebook.com:443'));
  });
});
