import type { GraphRequest } from './graph-request.js';
import type { GraphResponse } from './graph-response.js';

/** Answers remembered at most; past this the oldest are forgotten first. */
const MAX_ANSWERS = 5_000;
/** Bytes of answer bodies remembered at most, all together. */
const MAX_BYTES = 32 * 1024 * 1024;
/** A larger answer is made anew each time: it would push out many small ones. */
const MAX_ANSWER_BYTES = 256 * 1024;

/**
 * The answers of reads, remembered across requests while nothing in the store changes. The store's
 * data stamp (StoreVersions.data) moves with every change to anything it holds, made by this
 * process or any other, so an answer is only ever served again under the stamp it was read under:
 * the same bytes a fresh read would give. A read is named by everything it depends on beyond the
 * store: its token, the version that answers it, the second it is made (answers may depend on the
 * clock, e.g. an age range), where its links point, its path and every parameter.
 *
 * Only the read itself is skipped: the token is still checked, the call counted, faults applied and
 * the request journaled, each time. Stores without a stamp (PostgreSQL) remember nothing.
 */
export class AnswerCache {
  private readonly answers = new Map<string, GraphResponse>();
  private stamp: string | undefined;
  private bytes = 0;

  /** The answer remembered for this read under the request's stamp, if any, as a 200 with its ETag. */
  find(request: GraphRequest, key: string): GraphResponse | undefined {
    const stamp = request.dataStamp;
    if (stamp === undefined) return undefined;
    if (stamp !== this.stamp) {
      // Something changed: nothing remembered may be served again.
      this.answers.clear();
      this.bytes = 0;
      this.stamp = stamp;
      return undefined;
    }
    return this.answers.get(key);
  }

  /** Keeps an answer read under the request's stamp, unless the store has changed since. */
  remember(request: GraphRequest, key: string, answer: GraphResponse): void {
    const size = answer.body.length;
    if (request.dataStamp === undefined || request.dataStamp !== this.stamp || size > MAX_ANSWER_BYTES) return;
    const earlier = this.answers.get(key);
    if (earlier !== undefined) {
      this.bytes -= earlier.body.length;
      this.answers.delete(key);
    }
    while (this.answers.size > 0 && (this.answers.size >= MAX_ANSWERS || this.bytes + size > MAX_BYTES)) {
      const [oldestKey, oldest] = this.answers.entries().next().value!;
      this.bytes -= oldest.body.length;
      this.answers.delete(oldestKey);
    }
    this.answers.set(key, answer);
    this.bytes += size;
  }
}

/**
 * What names a read: everything its answer depends on besides the store's content, the scheme
 * and host its links are written with among them. `now` is the request's clock in whole seconds.
 */
export function readKey(request: GraphRequest, answeringVersion: string, now: number): string {
  const parts = [answeringVersion, String(now), request.linkBase, request.accessToken ?? '', request.components.join('/')];
  for (const name in request.params) parts.push(name, request.params[name]!);
  // Separators that a percent-decoded path or parameter may hold are escaped by JSON.
  return JSON.stringify(parts);
}
