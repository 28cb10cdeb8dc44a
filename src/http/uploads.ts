import type { FastifyRequest } from 'fastify';
import { GraphError } from '../errors.js';
import { tooLarge } from '../media/fetch-image.js';
import { uploadLimit, uploadTooLarge } from './connection-limits.js';

export interface MultipartBody {
  fields: Record<string, string>;
  /** The bytes of the first file part, whatever its name (`source`, `file`, `image`…). */
  file: Buffer | undefined;
}

/**
 * Reads a multipart body: its plain parts become parameters, its one file part the upload. The
 * limits are those given to @fastify/multipart; breaking one is a client error in the Graph
 * envelope, not a dropped connection.
 */
export async function readMultipart(request: FastifyRequest, maxFileBytes: number): Promise<MultipartBody> {
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  // A body sent without a length is counted as its parts arrive, against the same limit.
  const maxBytes = uploadLimit(maxFileBytes);
  let received = 0;
  const count = (bytes: number) => {
    received += bytes;
    if (received > maxBytes) throw uploadTooLarge(maxBytes);
  };
  try {
    for await (const part of request.parts()) {
      count(Buffer.byteLength(part.fieldname));
      if (part.type === 'file') {
        if (file !== undefined) throw GraphError.invalidParameter('Send one image per request');
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) {
          count(chunk.length);
          chunks.push(chunk);
        }
        file = Buffer.concat(chunks);
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        count(Buffer.byteLength(fields[part.fieldname]!));
      }
    }
  } catch (error) {
    throw asGraphError(error, maxFileBytes);
  }
  return { fields, file };
}

function asGraphError(error: unknown, maxFileBytes: number): GraphError {
  if (error instanceof GraphError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(maxFileBytes);
    case 'FST_FILES_LIMIT':
      return GraphError.invalidParameter('Send one image per request');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return GraphError.invalidParameter('The request has too many parameters');
    default:
      return GraphError.invalidParameter('The multipart request body could not be read');
  }
}
