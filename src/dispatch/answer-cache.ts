import type { GraphRequest } from './graph-request.js';
import type { GraphResponse } from './graph-response.js';
import { fnv1a } from '../text-hash.js';

/** Answers remembered at most; past this the oldest are forgotten first. */
const MAX_ANSWERS = 5_000;
/** Bytes of answer bodies remembered at most, all together. */
const MAX_BYTES = 32 * 1024 * 1024;
/** A larger answer is made anew each time: it would push out many small ones. */
const MAX_ANSWER_BYTES = 256 * 1024;
/** Reads named once and not yet again, at most; past this they are all forgotten at once. */
const MAX_SEEN = 20_000;

/**
 * The answers of reads, remembered across requests while nothing in the store changes. The store's
 * data stamp (StoreVersions.data) moves with every change to anything it holds, made by this
 * process or any other, so an answer is only ever served again under the stamp it was read under:
 * the same bytes a fresh read would give. A read is named by everything it depends on beyond the
 * store: its token, the version that answers it, the second it is made (answers may depend on the
 * clock, e.g. an age range), where its links point, its path and every parameter.
 *
 * An answer is kept the second time its read is made under the same stamp, and served from the
 * third: a read made once (most of them, where every request asks something new) costs no copy,
 * and no answer kept alive for the garbage collector to move and mark again and again.
 *
 * Only the read itself is skipped: the token is still checked, the call counted, faults applied and
 * the request journaled, each time. Stores without a stamp (PostgreSQL) remember nothing.
 */
export class AnswerCache {
  private readonly answers = new Map<string, GraphResponse>();
  /**
   * Reads made once under the stamp, by a small number made from the name (seenName): where most
   * requests ask something new, every one adds to this set, and names of hundreds of characters
   * kept here lived long enough for the garbage collector to copy and promote each of them.
   */
  private readonly seen = new Set<number>();
  private stamp: string | undefined;
  private bytes = 0;

  /** The answer remembered for this read under the request's stamp, if any, as a 200 with its ETag. */
  find(request: GraphRequest, key: string): GraphResponse | undefined {
    const stamp = request.dataStamp;
    if (stamp === undefined) return undefined;
    if (stamp !== this.stamp) {
      // Something changed: nothing remembered may be served again.
      this.answers.clear();
      this.seen.clear();
      this.bytes = 0;
      this.stamp = stamp;
      return undefined;
    }
    return this.answers.get(key);
  }

  /**
   * Notes a read made under the request's stamp, unless the store has changed since; its answer
   * is kept (a copy of it) if the read was made before.
   */
  remember(request: GraphRequest, key: string, answer: GraphResponse): void {
    const size = answer.body.length;
    if (request.dataStamp === undefined || request.dataStamp !== this.stamp || size > MAX_ANSWER_BYTES) return;
    const name = seenName(key);
    if (!this.seen.has(name)) {
      if (this.seen.size >= MAX_SEEN) this.seen.clear();
      this.seen.add(name);
      return;
    }
    this.seen.delete(name);
    const earlier = this.answers.get(key);
    if (earlier !== undefined) {
      this.bytes -= earlier.body.length;
      this.answers.delete(key);
    }
    if (this.answers.size >= MAX_ANSWERS || this.bytes + size > MAX_BYTES) this.forgetOldest(size);
    this.answers.set(key, copyOfAnswer(answer));
    this.bytes += size;
  }

  /**
   * Forgets the oldest answers, a tenth of them at least, in one pass: a map keeps its deleted
   * entries in its table until it grows again, so a search for the oldest from the start on
   * every read, once full, would step over thousands of them.
   */
  private forgetOldest(incoming: number): void {
    const keepCount = MAX_ANSWERS - Math.ceil(MAX_ANSWERS / 10);
    const keepBytes = MAX_BYTES - Math.ceil(MAX_BYTES / 10);
    for (const [key, answer] of this.answers) {
      if (this.answers.size <= keepCount && this.bytes + incoming <= keepBytes) break;
      this.bytes -= answer.body.length;
      this.answers.delete(key);
    }
  }
}

/**
 * A read's name as a number small enough to be stored unboxed (30 bits of its FNV-1a hash). Two
 * names that share it only make the later read's answer kept a read early: what is served is
 * still found by the full name.
 */
function seenName(key: string): number {
  return fnv1a(key) & 0x3fffffff;
}

/** Headers are changed per request (version, usage): each answer served or kept is a copy of its own. */
export function copyOfAnswer(response: GraphResponse): GraphResponse {
  return { ...response, headers: { ...response.headers } };
}

/**
 * What names a read: everything its answer depends on besides the store's content, the scheme
 * and host its links are written with among them. `now` is the request's clock in whole seconds.
 * Each part is written after its length, so no two reads share a name whatever their text holds.
 */
export function readKey(request: GraphRequest, answeringVersion: string, now: number): string {
  let key = `${answeringVersion.length}:${answeringVersion}${now}:${request.linkBase.length}:${request.linkBase}`;
  const token = request.accessToken ?? '';
  key += `${token.length}:${token}`;
  for (const component of request.components) key += `${component.length}/${component}`;
  for (const name in request.params) {
    const value = request.params[name]!;
    key += `${name.length}=${name}${value.length}&${value}`;
  }
  return key;
}
