import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { GraphError } from '../errors.js';

const MAX_REDIRECTS = 3;

export interface FetchLimits {
  maxBytes: number;
  /**
   * Whether a `url` may point into the server's own networks (loopback, private, link-local).
   * Off by default: otherwise anyone with a token could make Loom probe the machines around it.
   */
  allowPrivateUrls: boolean;
  /** The whole download's deadline; ten seconds unless given. */
  timeoutMs?: number;
}

/** Addresses an upload's `url` may not reach unless private addresses are allowed. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['64:ff9b::', 96],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const plain = unmapped(address);
  const family = isIP(plain);
  return family !== 0 && PRIVATE.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`, or `::ffff:7f00:1` as URLs spell it) is the IPv4 address it maps. */
function unmapped(address: string): string {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return address;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** What is fetched: the parameter naming its address, and the error when it cannot be had. */
export interface UploadKind {
  parameter: string;
  unreachable(detail: string): GraphError;
}

const IMAGE_UPLOAD: UploadKind = {
  parameter: 'url',
  unreachable: (detail) => new GraphError(324, `(#324) Missing or invalid image file: ${detail}`),
};

export const VIDEO_UPLOAD: UploadKind = {
  parameter: 'file_url',
  unreachable: (detail) => new GraphError(389, `(#389) Unable to fetch video file from URL: ${detail}`),
};

/**
 * Downloads the image (or video) a `url` (`file_url`) parameter names: http(s) only, at most
 * `maxBytes`, within ten seconds, following at most three redirects. The address check happens
 * in the connection's own name lookup, so a name that resolves differently a second time cannot
 * slip past it.
 */
export async function fetchUpload(address: string, limits: FetchLimits, kind: UploadKind = IMAGE_UPLOAD): Promise<Buffer> {
  let url = parseUrl(address, kind);
  // One deadline for the whole download, redirects and body included, however slowly bytes arrive.
  const deadline = AbortSignal.timeout(limits.timeoutMs ?? 10_000);
  for (let redirects = 0; ; redirects += 1) {
    const response = await request(url, limits, deadline, kind);
    const location = response.headers.location;
    if (response.statusCode !== undefined && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.resume();
      if (redirects === MAX_REDIRECTS) throw unreachable(kind, url, 'redirects too often');
      url = parseUrl(new URL(location, url).href, kind);
      continue;
    }
    if (response.statusCode !== 200) {
      response.resume();
      throw unreachable(kind, url, `answered with status ${response.statusCode}`);
    }
    return readBody(response, url, limits.maxBytes, deadline, kind);
  }
}

export function tooLarge(maxBytes: number): GraphError {
  return GraphError.invalidParameter(`The file is larger than the limit of ${maxBytes} bytes`);
}

function parseUrl(address: string, kind: UploadKind): URL {
  const url = URL.canParse(address) ? new URL(address) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw GraphError.invalidParameter(`The parameter ${kind.parameter} must be an absolute http or https address`);
  }
  return url;
}

function request(url: URL, limits: FetchLimits, deadline: AbortSignal, kind: UploadKind): Promise<IncomingMessage> {
  // A literal address is connected to without any lookup, so it is checked here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!limits.allowPrivateUrls && isPrivateAddress(literal)) return Promise.reject(privateAddress(kind, url.hostname));
  const get = url.protocol === 'https:' ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    const outgoing = get(url, { lookup: guardedLookup(limits.allowPrivateUrls), signal: deadline }, resolve);
    outgoing.on('error', (error) => {
      if (error instanceof GraphError) return reject(error);
      if (error instanceof PrivateAddressError) return reject(privateAddress(kind, error.hostname));
      reject(unreachable(kind, url, deadline.aborted ? 'took too long' : 'could not be reached'));
    });
  });
}

function privateAddress(kind: UploadKind, hostname: string): GraphError {
  return GraphError.invalidParameter(`The parameter ${kind.parameter} names a private network address (${hostname}), which Loom does not fetch`);
}

class PrivateAddressError extends Error {
  constructor(readonly hostname: string) {
    super(`${hostname} is a private network address`);
  }
}

/** DNS lookup that refuses private addresses. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = allowPrivate ? addresses : addresses.filter((entry) => !isPrivateAddress(entry.address));
      if (allowed.length === 0) {
        return callback(new PrivateAddressError(hostname), '', 0);
      }
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

async function readBody(response: IncomingMessage, url: URL, maxBytes: number, deadline: AbortSignal, kind: UploadKind): Promise<Buffer> {
  const declared = Number(response.headers['content-length'] ?? NaN);
  if (declared > maxBytes) {
    response.destroy();
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        response.destroy();
        throw tooLarge(maxBytes);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    throw error instanceof GraphError ? error : unreachable(kind, url, deadline.aborted ? 'took too long' : 'broke off');
  }
  return Buffer.concat(chunks);
}

function unreachable(kind: UploadKind, url: URL, reason: string): GraphError {
  return kind.unreachable(`${url.origin} ${reason}`);
}
