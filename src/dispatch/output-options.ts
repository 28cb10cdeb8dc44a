/**
 * Parameters that change how an answer is written, never what it holds: `pretty`, JSONP
 * `callback`, `suppress_http_code`, `date_format` and `debug`. Clients send them with any
 * request; anything they do not recognise is ignored, as the real service ignores it.
 */
export interface OutputOptions {
  pretty: boolean;
  /** A JSONP function name, only ever a safe dotted identifier. */
  callback: string | undefined;
  /** A `callback` was given that is not a safe name: the request fails, and the name is never written back. */
  callbackRefused: boolean;
  suppressHttpCode: boolean;
  /** A PHP `date()` pattern for every time in the answer (`U`: unix seconds as numbers). */
  dateFormat: string | undefined;
  /** `debug=all|info|warning`: successful answers carry `__debug__.messages`. */
  debug: boolean;
}

/** `name`, `a.b.c`, `$jsonp_1`: JavaScript identifiers joined by dots, bounded in length. */
const SAFE_CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const MAX_CALLBACK_LENGTH = 200;
const MAX_DATE_FORMAT_LENGTH = 100;
const DEBUG_LEVELS = new Set(['all', 'info', 'warning']);

export function outputOptions(params: Record<string, string>): OutputOptions {
  const callback = params.callback;
  const safe = callback !== undefined && callback.length <= MAX_CALLBACK_LENGTH && SAFE_CALLBACK.test(callback);
  const dateFormat = params.date_format;
  return {
    pretty: params.pretty === '1' || params.pretty === 'true',
    callback: safe ? callback : undefined,
    callbackRefused: callback !== undefined && callback !== '' && !safe,
    suppressHttpCode: params.suppress_http_code === '1' || params.suppress_http_code === 'true',
    dateFormat: dateFormat && dateFormat.length <= MAX_DATE_FORMAT_LENGTH ? dateFormat : undefined,
    debug: DEBUG_LEVELS.has(params.debug ?? ''),
  };
}
