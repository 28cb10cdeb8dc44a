import { GraphError } from '../errors.js';

const TIMEOUT_MS = 10_000;

/** Downloads the image a `url` parameter names, refusing anything but http(s) and anything over `maxBytes`. */
export async function fetchImage(address: string, maxBytes: number): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw GraphError.invalidParameter('The parameter url must be an absolute http or https address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw GraphError.invalidParameter('The parameter url must be an absolute http or https address');
  }
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw unreachable(url);
  }
  if (!response.ok || !response.body) throw unreachable(url, response.status);
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);

  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof GraphError) throw error;
    throw unreachable(url);
  }
  return Buffer.concat(chunks);
}

export function tooLarge(maxBytes: number): GraphError {
  return GraphError.invalidParameter(`The image is larger than the limit of ${maxBytes} bytes`);
}

function unreachable(url: URL, status?: number): GraphError {
  const reason = status === undefined ? 'could not be reached' : `answered with status ${status}`;
  return new GraphError(324, `(#324) Missing or invalid image file: ${url.origin} ${reason}`);
}
