/**
 * A public page of a business, place, brand or public figure, which people can like. The people
 * who administer it can act as it with a page token (their `accounts` edge lists those).
 */
import type { FieldContext, NodeTypeDef } from '../definition.js';
import type { StoredObject } from '../../store/store.js';
import { photoSourceUrl } from '../media.js';
import { postToPageFeed, uploadVideoTo } from '../writes.js';

/** The cover as the real service shows it: the photo's id (twice), its offsets and its address. */
function pageCover(object: StoredObject, context: FieldContext): Record<string, unknown> | undefined {
  const cover = object.data.cover as { cover_id?: unknown; offset_x?: unknown; offset_y?: unknown; width?: unknown; height?: unknown } | undefined;
  if (typeof cover !== 'object' || cover === null || typeof cover.cover_id !== 'number') return undefined;
  const id = String(cover.cover_id);
  const source = photoSourceUrl(context.publicUrl, { id, width: cover.width, height: cover.height });
  return { cover_id: id, offset_x: cover.offset_x ?? 0, offset_y: cover.offset_y ?? 0, source, id };
}

/** What a place (a page named by a post, photo or album) shows by default: the real service's place shape. */
export const PLACE_FIELDS = 'name,location';

export const pageType: NodeTypeDef = {
  name: 'page',
  label: 'Page',
  idForm: 'plain',
  visibility: 'public',
  defaultFields: ['name'],
  // restfb v2_0/page.json (a v2.0 capture).
  fullDefaultFields: { names: ['id', 'about', 'category', 'likes', 'link', 'name', 'username', 'website'] },
  fields: [
    { name: 'id', type: 'numeric string', source: { kind: 'id' },
      description: "The page's id." },
    { name: 'access_token', type: 'string', source: { kind: 'pageToken' },
      description: 'A page access token, shown only to a person who administers the page and granted manage_pages.' },
    { name: 'about', type: 'string',
      description: 'A short description the page gives of itself.' },
    { name: 'category', type: 'string',
      description: 'The kind of thing the page is about, such as a city or a musician.' },
    { name: 'category_list', type: 'list<pagecategory>',
      description: 'The categories the page is listed under, each with its id and name.' },
    { name: 'checkins', type: 'unsigned int32',
      description: 'How many times people checked in at the place the page stands for.' },
    { name: 'cover', type: 'coverphoto', source: { kind: 'computed', compute: pageCover },
      description: "The page's cover photo: its id, address and offsets." },
    { name: 'description', type: 'string',
      description: 'A longer description of what the page is about.' },
    { name: 'fan_count', type: 'unsigned int32', source: { kind: 'count', assoc: 'fans' }, versions: 'page-fan-count',
      description: 'How many people like the page.' },
    { name: 'hours', type: 'map<string, string>',
      description: 'Opening hours, keyed by day and opening or closing (`mon_1_open`).' },
    { name: 'is_published', type: 'bool', source: { kind: 'computed', compute: (object) => object.data.is_published !== false },
      description: 'Whether the page is visible to the public.' },
    { name: 'likes', type: 'unsigned int32', source: { kind: 'count', assoc: 'fans' }, versions: 'page-likes-count',
      description: 'How many people like the page.' },
    { name: 'link', type: 'string',
      source: { kind: 'computed', compute: (object, context) => `${context.profileHost}/${typeof object.data.username === 'string' ? object.data.username : object.id}` },
      description: 'Address of the page.' },
    { name: 'location', type: 'location',
      description: 'Where the page is located, for places and businesses.' },
    { name: 'name', type: 'string',
      description: 'The name of the page.' },
    { name: 'phone', type: 'string',
      description: 'Telephone number of the business behind the page.' },
    { name: 'talking_about_count', type: 'unsigned int32',
      description: 'How many people interacted with the page in the last week.' },
    { name: 'username', type: 'string',
      description: 'The short name used in the address of the page.' },
    { name: 'website', type: 'string',
      description: 'The web address of the business or person behind the page.' },
    { name: 'were_here_count', type: 'unsigned int32',
      description: 'How many people said they were at the place the page stands for.' },
  ],
  edges: [
    { name: 'albums', target: 'album', assoc: 'albums',
      description: 'Photo albums of the page.' },
    { name: 'events', target: 'event', assoc: 'events',
      description: 'Events the page organises.' },
    { name: 'feed', target: 'post', assoc: 'feed', post: postToPageFeed,
      description: "Posts on the page's wall, by the page and by visitors." },
    { name: 'likes', target: 'page', assoc: 'liked_pages', versions: 'page-fan-count',
      description: 'Pages this page likes.' },
    { name: 'milestones', target: 'post',
      description: "Milestones of the page's history it published." },
    { name: 'photos', target: 'photo', assoc: 'photos',
      description: 'Photos the page uploaded.' },
    { name: 'picture', target: 'photo', special: 'picture',
      description: "The page's profile picture." },
    { name: 'posts', target: 'post', assoc: 'posts',
      description: 'Posts the page published.' },
    { name: 'tagged', target: 'post', assoc: 'tagged',
      description: 'Posts by others that tag the page.' },
    { name: 'videos', target: 'video', assoc: 'videos', post: uploadVideoTo('self'),
      description: 'Videos the page published.' },
  ],
  // Every page is found as a page; those with a position are also places.
  search: {
    // Before v2.4 ("fewer default fields"), search items carried more than name and id: pages
    // their category, places their category and address. The exact sets are Loom's reading of
    // that era's answers; no capture at hand confirms them.
    as: [
      { type: 'page', fullDefaultFields: ['name', 'category'] },
      { type: 'place', located: true, fullDefaultFields: ['category', 'location', 'name'] },
    ],
    fields: ['name', 'category'],
    point: { latitude: 'location.latitude', longitude: 'location.longitude' },
  },
};
