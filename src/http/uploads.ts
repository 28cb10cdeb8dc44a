import type { FastifyRequest } from 'fastify';
import { GraphError } from '../errors.js';
import { tooLarge } from '../media/fetch-image.js';
import type { UploadedFile } from '../dispatch/graph-request.js';

/** A batch may attach several files (one per photo upload), each within the image limit. */
export const MAX_FILES = 10;
/** Room for the plain fields of a multipart form beside its files. */
const FORM_MARGIN_BYTES = 1024 * 1024;

/** The largest image (`maxBytes`) and the largest video an upload may carry. */
export interface UploadLimits {
  maxBytes: number;
  maxVideoBytes: number;
}

/** The largest single file part: an image or a video. */
export function largestFile(limits: UploadLimits): number {
  return Math.max(limits.maxBytes, limits.maxVideoBytes);
}

/** The largest multipart body: every image it may carry at their largest (or one video), and the other fields. */
export function uploadLimit(limits: UploadLimits): number {
  return Math.max(MAX_FILES * limits.maxBytes, limits.maxVideoBytes) + FORM_MARGIN_BYTES;
}

export function uploadTooLarge(maxBytes: number): GraphError {
  return new GraphError(100, `(#100) The request body is larger than the limit of ${maxBytes} bytes`, { status: 413 });
}

export interface MultipartBody {
  fields: Record<string, string>;
  /** The file parts in the order sent, each under its part name (`source`, `file1`…). */
  files: UploadedFile[];
}

/**
 * Reads a multipart body: its plain parts become parameters, its file parts the uploads. The
 * limits are those given to @fastify/multipart; breaking one is a client error in the Graph
 * envelope, not a dropped connection.
 */
export async function readMultipart(request: FastifyRequest, limits: UploadLimits): Promise<MultipartBody> {
  const maxFileBytes = largestFile(limits);
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  // A body sent without a length is counted as its parts arrive, against the same limit.
  const maxBytes = uploadLimit(limits);
  let received = 0;
  const count = (bytes: number) => {
    received += bytes;
    if (received > maxBytes) throw uploadTooLarge(maxBytes);
  };
  try {
    for await (const part of request.parts()) {
      count(Buffer.byteLength(part.fieldname));
      if (part.type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          count(chunk.length);
          chunks.push(chunk);
        }
        files.push({ name: part.fieldname, bytes: Buffer.concat(chunks) });
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        count(Buffer.byteLength(fields[part.fieldname]!));
      }
    }
  } catch (error) {
    throw asGraphError(error, maxFileBytes);
  }
  return { fields, files };
}

function asGraphError(error: unknown, maxFileBytes: number): GraphError {
  if (error instanceof GraphError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(maxFileBytes);
    case 'FST_FILES_LIMIT':
      return GraphError.invalidParameter(`A request may carry at most ${MAX_FILES} files`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return GraphError.invalidParameter('The request has too many parameters');
    default:
      return GraphError.invalidParameter('The multipart request body could not be read');
  }
}
