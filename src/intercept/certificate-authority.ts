// @peculiar/x509 reads decorator metadata through this polyfill, which must load before it.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeSystemError } from '../errors.js';
import { INTERCEPTED_HOSTS, type HostCredentials } from './intercepted-hosts.js';
import { AsnConvert } from '@peculiar/asn1-schema';
import { GeneralName, GeneralSubtree, GeneralSubtrees, id_ce_nameConstraints, NameConstraints } from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';

export interface CertificateAuthority {
  /** Path of the authority's public certificate (PEM), for NODE_EXTRA_CA_CERTS and the like. */
  certificatePath: string;
  certificatePem: string;
  /** A fresh certificate for every intercepted host, signed by this authority. */
  issueHostCredentials(): Promise<HostCredentials>;
}

const CERTIFICATE_FILE = 'ca.pem';
const KEY_FILE = 'ca-key.pem';
const BUNDLE_FILE = 'ca-bundle.pem';
const AUTHORITY_YEARS = 10;
const HOST_DAYS = 365;
const DAY_MS = 86_400_000;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const KEY_PARAMS = { name: 'ECDSA', namedCurve: 'P-256' } as const;

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/**
 * The authority kept in `dir`, created on first use. Its key never leaves the directory, which
 * only its owner can read; its certificate is constrained to the intercepted hosts, so trusting
 * it lets Loom answer for those names and nothing else, even if the key were taken.
 */
export async function openCertificateAuthority(dir: string): Promise<CertificateAuthority> {
  const certificatePath = join(dir, CERTIFICATE_FILE);
  const keyPath = join(dir, KEY_FILE);
  if (!existsSync(certificatePath) || !existsSync(keyPath)) await createAuthority(dir, certificatePath, keyPath);
  const certificatePem = readFileSync(certificatePath, 'utf8');
  const authority = new x509.X509Certificate(certificatePem);
  const signingKey = await webcrypto.subtle.importKey('pkcs8', pemBody(readFileSync(keyPath, 'utf8')), KEY_PARAMS, false, ['sign']);
  return {
    certificatePath,
    certificatePem,
    issueHostCredentials: () => issueHostCredentials(authority, signingKey, certificatePem),
  };
}

/** Writes the system's trusted authorities and Loom's into one file, for clients whose setting replaces their whole trust store. */
export function writeBundle(authority: CertificateAuthority, systemAuthorities: string): string {
  const path = join(dirname(authority.certificatePath), BUNDLE_FILE);
  writeFileSync(path, `${systemAuthorities.trimEnd()}\n${authority.certificatePem}`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

async function createAuthority(dir: string, certificatePath: string, keyPath: string): Promise<void> {
  try {
    // Only beside a database that has a folder: a mistyped path must not leave folders behind.
    if (!existsSync(dir)) mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o700);
  } catch (error) {
    const why = existsSync(dirname(dir)) ? describeSystemError(error) : `the folder ${dirname(dir)} does not exist`;
    throw new Error(`cannot create the certificate authority's folder ${dir}: ${why}`, { cause: error });
  }
  const keys = (await webcrypto.subtle.generateKey(KEY_PARAMS, true, ['sign', 'verify']));
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=Loom local authority ${randomBytes(4).toString('hex')}, O=Loom`,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + AUTHORITY_YEARS * 365 * DAY_MS),
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      hostConstraints(),
    ],
  });
  const key = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  // The key first and exclusively: a certificate without its key would be unusable.
  writeFileSync(keyPath, toPem(key, 'PRIVATE KEY'), { mode: 0o600, flag: 'w' });
  chmodSync(keyPath, 0o600);
  writeFileSync(certificatePath, certificate.toString('pem'), { mode: 0o600 });
  chmodSync(certificatePath, 0o600);
}

/** Only the intercepted host names; no IP address at all. */
function hostConstraints(): x509.Extension {
  const constraints = new NameConstraints({
    permittedSubtrees: new GeneralSubtrees(INTERCEPTED_HOSTS.map((host) => new GeneralSubtree({ base: new GeneralName({ dNSName: host }) }))),
    excludedSubtrees: new GeneralSubtrees(['0.0.0.0/0', '::/0'].map((range) => new GeneralSubtree({ base: new GeneralName({ iPAddress: range }) }))),
  });
  return new x509.Extension(id_ce_nameConstraints, true, AsnConvert.serialize(constraints));
}

async function issueHostCredentials(authority: x509.X509Certificate, signingKey: CryptoKey, authorityPem: string): Promise<HostCredentials> {
  const keys = (await webcrypto.subtle.generateKey(KEY_PARAMS, true, ['sign', 'verify']));
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${INTERCEPTED_HOSTS[0]}`,
    issuer: authority.subject,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + HOST_DAYS * DAY_MS),
    publicKey: keys.publicKey,
    signingKey,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(INTERCEPTED_HOSTS.map((host) => ({ type: 'dns' as const, value: host }))),
      await x509.AuthorityKeyIdentifierExtension.create(authority.publicKey),
    ],
  });
  const key = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { cert: `${certificate.toString('pem')}\n${authorityPem}`, key: toPem(key, 'PRIVATE KEY') };
}

/** A positive 16-byte serial number, as RFC 5280 asks. */
function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

function toPem(der: Uint8Array, label: string): string {
  const lines = Buffer.from(der).toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

function pemBody(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}
