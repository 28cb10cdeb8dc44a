/**
 * Where an event takes place, in the words of the versions before v2.3: `location`, the place's
 * name, and `venue`, its address and coordinates (with the place's id where it is a page). Both
 * read the `place` an event stores, which v2.3 and later show as it is.
 */
import type { StoredNode } from '../schema/stored-node.js';

interface StoredPlace {
  name?: unknown;
  id?: unknown;
  location?: unknown;
}

function placeOf(object: StoredNode): StoredPlace | undefined {
  const place = object.data.place;
  return place !== null && typeof place === 'object' && !Array.isArray(place) ? place : undefined;
}

export function eventLocation(object: StoredNode): string | undefined {
  const name = placeOf(object)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** A venue was a page's address and coordinates, then its id; a place that is no page had none. */
export function eventVenue(object: StoredNode): Record<string, unknown> | undefined {
  const place = placeOf(object);
  const location = place?.location;
  if (place?.id === undefined || location === null || typeof location !== 'object' || Array.isArray(location)) return undefined;
  return { ...(location as Record<string, unknown>), id: String(place.id) };
}
