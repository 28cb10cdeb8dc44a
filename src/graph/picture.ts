/**
 * Profile pictures, which are public: `/<id>/picture` answers the same with or without a token.
 * Loom draws no faces, so every picture is the silhouette, at the size asked for.
 */
import { GraphError } from '../errors.js';
import { silhouetteUrl } from '../schema/media.js';
import type { Json } from '../ids.js';
import { Redirect } from '../schema/behaviours.js';

/** The sizes `type` names, as the real service draws them (square and small are 50 wide, normal 100, large 200). */
const TYPES: Record<string, { width: number; height: number }> = {
  square: { width: 50, height: 50 },
  small: { width: 50, height: 50 },
  normal: { width: 100, height: 100 },
  large: { width: 200, height: 200 },
};
const MAX_SIDE = 2048;

/**
 * `GET /<id>/picture[?type=…&width=…&height=…&redirect=false]`: a 302 to the image, or with
 * `redirect=false` (or 0) its description, `{"data":{"is_silhouette","url"[,"width","height"]}}`,
 * the size only when one was asked for.
 */
export function pictureAnswer(publicUrl: string, params: Record<string, string>): Json | Redirect {
  const size = requestedSize(params);
  const base = silhouetteUrl(publicUrl);
  const url = size ? `${base}?width=${size.width}&height=${size.height}` : base;
  if (!['false', '0'].includes(params.redirect ?? '')) return new Redirect(url);
  return { data: { is_silhouette: true, url, ...(size ?? {}) } };
}

function requestedSize(params: Record<string, string>): { width: number; height: number } | undefined {
  const width = side(params, 'width');
  const height = side(params, 'height');
  if (width !== undefined || height !== undefined) {
    // The silhouette is square: one side given sets the other.
    return { width: width ?? height!, height: height ?? width! };
  }
  if (params.type === undefined) return undefined;
  const typed = TYPES[params.type];
  if (!typed) throw GraphError.invalidParameter(`The parameter type must be one of ${Object.keys(TYPES).join(', ')}`);
  return typed;
}

function side(params: Record<string, string>, name: 'width' | 'height'): number | undefined {
  const text = params[name];
  if (text === undefined) return undefined;
  const value = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= MAX_SIDE)) throw GraphError.invalidParameter(`The parameter ${name} must be a whole number from 1 to ${MAX_SIDE}`);
  return value;
}
