import { GraphError } from '../errors.js';

/** Framework-level failures (bad JSON, oversized bodies) speak the Graph envelope too. */
export function fromFrameworkError(error: { code?: string; statusCode?: number; message: string }, bodyLimit: number): GraphError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GraphError(100, `(#100) The request body is larger than the limit of ${bodyLimit} bytes`, { status: 413 });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return GraphError.invalidParameter('The request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return GraphError.invalidParameter('The request body has a content type Loom does not read');
    default:
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        return GraphError.invalidParameter('The request could not be read');
      }
      return GraphError.internal();
  }
}
