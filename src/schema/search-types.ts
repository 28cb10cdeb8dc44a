/**
 * The words `GET /search?type=…` takes in v2.x, and who may search each. The node type that
 * answers a word is the one whose declaration claims it (`search.as`); a word no type claims
 * answers an empty list.
 */
export interface SearchTypeDef {
  name: string;
  /**
   * Only a person's token may search these; an app token gets `(#200) Must have a valid
   * access_token to access this endpoint` (restfb#823, justinlittman/fbarc#2). Pages and places
   * were searchable with an app token (the search documentation's "Access Tokens": "Searches
   * across page and place objects requires an app access token"); place topics are taken to
   * follow places.
   */
  needsUser: boolean;
  /** Takes `center=<latitude>,<longitude>` and `distance` (metres). */
  near?: boolean;
  /**
   * How its pages link on: `offset` (no cursors; `offset` and `__after_id` in `next`, as the
   * reference's captures show for search) or `cursor` (`cursors` and `after`, as place
   * searches answered).
   */
  paging: 'offset' | 'cursor';
}

const SEARCH_TYPES: readonly SearchTypeDef[] = [
  { name: 'user', needsUser: true, paging: 'offset' },
  { name: 'page', needsUser: false, paging: 'offset' },
  { name: 'event', needsUser: true, paging: 'offset' },
  { name: 'group', needsUser: true, paging: 'offset' },
  { name: 'place', needsUser: false, near: true, paging: 'cursor' },
  { name: 'placetopic', needsUser: false, paging: 'cursor' },
];

/** The distance a place search spans when `center` comes without one, and the most it may span, in metres. */
export const DEFAULT_SEARCH_DISTANCE = 1000;
export const MAX_SEARCH_DISTANCE = 50_000;

export function searchType(word: string): SearchTypeDef | undefined {
  return SEARCH_TYPES.find((type) => type.name === word);
}
