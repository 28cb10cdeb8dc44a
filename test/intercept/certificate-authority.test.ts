import 'reflect-metadata';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type Server } from 'node:tls';
import { describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { openCertificateAuthority } from '../../src/intercept/certificate-authority.js';

const KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** A certificate for `names`, signed with the authority's own key, as a thief of that key could make. */
async function forged(dir: string, names: { type: 'dns' | 'ip'; value: string }[]): Promise<{ cert: string; key: string }> {
  const pem = readFileSync(join(dir, 'ca-key.pem'), 'utf8').replace(/-----[^-]+-----|\s+/g, '');
  const signingKey = await webcrypto.subtle.importKey('pkcs8', Buffer.from(pem, 'base64'), KEY, false, ['sign']);
  const authority = new x509.X509Certificate(readFileSync(join(dir, 'ca.pem'), 'utf8'));
  const keys = (await webcrypto.subtle.generateKey(KEY, true, ['sign', 'verify']));
  const certificate = await x509.X509CertificateGenerator.create({
    subject: `CN=${names[0]!.value}`,
    issuer: authority.subject,
    publicKey: keys.publicKey,
    signingKey,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [new x509.SubjectAlternativeNameExtension(names)],
  });
  const key = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return { cert: certificate.toString('pem'), key: `-----BEGIN PRIVATE KEY-----\n${key}\n-----END PRIVATE KEY-----\n` };
}

/** Whether a client trusting only the authority accepts `credentials` for `servername`. */
async function accepted(ca: string, credentials: { cert: string; key: string }, servername: string): Promise<string> {
  const server: Server = createServer(credentials, (socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    return await new Promise<string>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, ca, servername }, () => {
        socket.destroy();
        resolve('accepted');
      });
      socket.on('error', (error: Error & { code?: string }) => resolve(`${error.code ?? ''} ${error.message}`));
    });
  } finally {
    server.close();
  }
}

describe('the local certificate authority', () => {
  it('can vouch for the Graph hosts and for no other name, even with its own key', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'loom-ca-')), 'ca');
    const authority = await openCertificateAuthority(dir);
    assert.equal(await accepted(authority.certificatePem, await authority.issueHostCredentials(), 'graph.facebook.com'), 'accepted');
    assert.equal(await accepted(authority.certificatePem, await forged(dir, [{ type: 'dns', value: 'graph-video.facebook.com' }]), 'graph-video.facebook.com'), 'accepted');
    assert.equal(await accepted(authority.certificatePem, await forged(dir, [{ type: 'dns', value: 'www.example.com' }]), 'www.example.com'), 'UNSPECIFIED permitted subtree violation');
    assert.equal(await accepted(authority.certificatePem, await forged(dir, [{ type: 'ip', value: '127.0.0.1' }]), 'localhost'), 'UNSPECIFIED excluded subtree violation');
  });
});
