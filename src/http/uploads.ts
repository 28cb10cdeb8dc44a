import type { FastifyRequest } from 'fastify';
import { GraphError } from '../errors.js';
import { tooLarge } from '../media/fetch-image.js';
import type { UploadedFile } from './graph-request.js';

/** A batch may attach several files (one per photo upload), each within the image limit. */
export const MAX_FILES = 10;

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
export async function readMultipart(request: FastifyRequest, maxFileBytes: number): Promise<MultipartBody> {
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        files.push({ name: part.fieldname, bytes: await part.toBuffer() });
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
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
