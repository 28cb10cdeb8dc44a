import { GraphError } from '../errors.js';

export interface VideoInfo {
  contentType: string;
  /** Seconds, when the container records its duration; absent when it does not. */
  length?: number;
}

/**
 * Reads the container format, and its duration where the container records one, from the bytes
 * themselves: MP4 and QuickTime (ISO base media boxes, whose `moov/mvhd` holds the duration)
 * and WebM (EBML, whose `Segment/Info` holds it). A file name or declared type says nothing.
 */
export function inspectVideo(bytes: Buffer): VideoInfo {
  const boxes = isoBoxesInfo(bytes);
  if (boxes) return boxes;
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === EBML_HEADER) {
    const webm = webmInfo(bytes);
    if (webm) return webm;
  }
  throw invalidVideo();
}

/** The content type a stored video is served as, from its first bytes (it was checked on upload). */
export function videoContentType(bytes: Buffer): string {
  try {
    return inspectVideo(bytes).contentType;
  } catch {
    return 'application/octet-stream';
  }
}

function invalidVideo(): GraphError {
  return new GraphError(352, '(#352) Sorry, the video file you selected is in a format that we don\'t support: send an MP4, WebM or QuickTime video');
}

/** Top-level box types a QuickTime file may open with when it carries no `ftyp`. */
const QUICKTIME_FIRST = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

interface Box {
  type: string;
  /** Where the box's content starts and ends. */
  start: number;
  end: number;
}

/** The boxes lying between `start` and `end`; stops at the first one that does not fit. */
function boxesIn(bytes: Buffer, start: number, end: number): Box[] {
  const boxes: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = bytes.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) break;
      const large = bytes.readBigUInt64BE(at + 8);
      if (large > BigInt(end - at)) break;
      size = Number(large);
      header = 16;
    } else if (size === 0) {
      // The last box runs to the end of the file.
      size = end - at;
    }
    if (size < header || at + size > end) break;
    boxes.push({ type: bytes.toString('latin1', at + 4, at + 8), start: at + header, end: at + size });
    at += size;
  }
  return boxes;
}

/** MP4 (`ftyp` with an MP4 brand) or QuickTime (`ftyp` brand `qt  `, or an older file opening with a known atom). */
function isoBoxesInfo(bytes: Buffer): VideoInfo | undefined {
  const boxes = boxesIn(bytes, 0, bytes.length);
  const first = boxes[0];
  if (!first) return undefined;
  let contentType: string;
  if (first.type === 'ftyp') {
    if (first.end - first.start < 4) return undefined;
    contentType = bytes.toString('latin1', first.start, first.start + 4) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  } else if (QUICKTIME_FIRST.has(first.type)) {
    contentType = 'video/quicktime';
  } else {
    return undefined;
  }
  const moov = boxes.find((box) => box.type === 'moov');
  const mvhd = moov ? boxesIn(bytes, moov.start, moov.end).find((box) => box.type === 'mvhd') : undefined;
  const length = mvhd ? mvhdSeconds(bytes, mvhd) : undefined;
  return length === undefined ? { contentType } : { contentType, length };
}

/** `mvhd`: version, flags, two times, then the timescale (units a second) and the duration in those units. */
function mvhdSeconds(bytes: Buffer, box: Box): number | undefined {
  const version = bytes[box.start];
  const wide = version === 1;
  const timescaleAt = box.start + 4 + (wide ? 16 : 8);
  const durationEnd = timescaleAt + 4 + (wide ? 8 : 4);
  if (durationEnd > box.end) return undefined;
  const timescale = bytes.readUInt32BE(timescaleAt);
  const duration = wide ? bytes.readBigUInt64BE(timescaleAt + 4) : BigInt(bytes.readUInt32BE(timescaleAt + 4));
  // All ones means the duration is unknown.
  const unknown = wide ? 0xffff_ffff_ffff_ffffn : 0xffff_ffffn;
  if (timescale === 0 || duration === unknown) return undefined;
  return roundSeconds(Number(duration) / timescale);
}

const EBML_HEADER = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
/** Nanoseconds a timecode counts unless the Info says otherwise. */
const DEFAULT_TIMECODE_SCALE = 1_000_000;

interface Element {
  id: number;
  start: number;
  end: number;
}

/** An EBML variable-length number at `at`: its value (marker bit removed, or the raw id) and width. */
function readVint(bytes: Buffer, at: number, keepMarker: boolean): { value: number; width: number; unknown: boolean } | undefined {
  const first = bytes[at];
  if (first === undefined || first === 0) return undefined;
  const width = Math.clz32(first) - 23;
  if (width > 8 || at + width > bytes.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> width);
  let allOnes = value === (0xff >> width);
  for (let i = 1; i < width; i++) {
    const byte = bytes[at + i]!;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, width, unknown: !keepMarker && allOnes };
}

/** The elements between `start` and `end`; an element of unknown size (a live Segment) runs to `end`. */
function elementsIn(bytes: Buffer, start: number, end: number): Element[] {
  const elements: Element[] = [];
  let at = start;
  while (at < end) {
    const id = readVint(bytes, at, true);
    if (!id) break;
    const size = readVint(bytes, at + id.width, false);
    if (!size) break;
    const contentStart = at + id.width + size.width;
    const contentEnd = size.unknown ? end : contentStart + size.value;
    if (contentEnd > end) break;
    elements.push({ id: id.value, start: contentStart, end: contentEnd });
    at = contentEnd;
  }
  return elements;
}

/** A WebM file: an EBML header whose DocType is `webm`; the duration is in Segment/Info. */
function webmInfo(bytes: Buffer): VideoInfo | undefined {
  const [header, ...rest] = elementsIn(bytes, 0, bytes.length);
  if (!header || header.id !== EBML_HEADER) return undefined;
  const docType = elementsIn(bytes, header.start, header.end).find((element) => element.id === DOC_TYPE);
  if (!docType || bytes.toString('latin1', docType.start, docType.end) !== 'webm') return undefined;
  const contentType = 'video/webm';
  const segment = rest.find((element) => element.id === SEGMENT);
  const info = segment ? elementsIn(bytes, segment.start, segment.end).find((element) => element.id === INFO) : undefined;
  if (!info) return { contentType };
  const fields = elementsIn(bytes, info.start, info.end);
  const duration = fields.find((element) => element.id === DURATION);
  const scaleElement = fields.find((element) => element.id === TIMECODE_SCALE);
  const scale = scaleElement ? unsignedOf(bytes, scaleElement) : DEFAULT_TIMECODE_SCALE;
  const ticks = duration ? floatOf(bytes, duration) : undefined;
  if (ticks === undefined || !Number.isFinite(ticks) || ticks < 0 || !scale) return { contentType };
  return { contentType, length: roundSeconds((ticks * scale) / 1e9) };
}

function unsignedOf(bytes: Buffer, element: Element): number | undefined {
  const width = element.end - element.start;
  if (width < 1 || width > 6) return undefined;
  return bytes.readUIntBE(element.start, width);
}

function floatOf(bytes: Buffer, element: Element): number | undefined {
  const width = element.end - element.start;
  if (width === 4) return bytes.readFloatBE(element.start);
  if (width === 8) return bytes.readDoubleBE(element.start);
  return undefined;
}

/** Milliseconds are as fine as the real service reports a length. */
function roundSeconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
