/** A public page of a business, place, brand or public figure, which people can like. */
import type { NodeTypeDef } from '../definition.js';

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
    { name: 'name', type: 'string',
      description: 'The name of the page.' },
    { name: 'category', type: 'string',
      description: 'The kind of thing the page is about, such as a city or a musician.' },
    { name: 'about', type: 'string',
      description: 'A short description the page gives of itself.' },
    { name: 'website', type: 'string',
      description: 'The web address of the business or person behind the page.' },
    { name: 'username', type: 'string',
      description: 'The short name used in the address of the page.' },
    { name: 'location', type: 'location',
      description: 'Where the page is located, for places and businesses.' },
    { name: 'link', type: 'string',
      source: { kind: 'computed', compute: (object, context) => `${context.profileHost}/${object.id}` },
      description: 'Address of the page.' },
    { name: 'likes', type: 'unsigned int32', source: { kind: 'count', assoc: 'fans' },
      description: 'How many people like the page.' },
  ],
  edges: [
    { name: 'posts', target: 'post', assoc: 'posts',
      description: 'Posts the page published.' },
    { name: 'feed', target: 'post', assoc: 'feed',
      description: "Posts on the page's wall, by the page and by visitors." },
    { name: 'photos', target: 'photo',
      description: 'Photos the page uploaded.' },
    { name: 'albums', target: 'album', assoc: 'albums',
      description: 'Photo albums of the page.' },
    { name: 'picture', target: 'photo', special: 'picture',
      description: "The page's profile picture." },
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
