/**
 * A page graph on top of the shared fixture: a page Alice administers with every v2.4 field, a
 * page Bob administers, Alice's link post (preview, tags, made through the app, shared once by
 * Bob) and her photo post.
 */
import type { WriteOp } from '../../src/store/write-ops.js';
import { NOW, type Fixture } from './fixture.js';

const DAY = 86_400;

export const PAGE_DATA = {
  name: 'Harbor Light Bakery',
  category: 'Bakery',
  category_list: [{ id: '197871390225897', name: 'Bakery' }],
  username: 'harborlightbakery',
  about: 'Sourdough by the water.',
  description: 'A neighbourhood bakery.',
  website: 'https://harborlight.example.com',
  phone: '+1 555 0142',
  location: { street: '12 Quay Street', city: 'Harbor City', country: 'United States', zip: '94011', latitude: 37.8, longitude: -122.4 },
  hours: { mon_1_open: '07:00', mon_1_close: '18:00' },
  checkins: 41,
  were_here_count: 77,
  talking_about_count: 9,
  is_published: true,
};

export interface PageGraph {
  page: number;
  bobsPage: number;
  linkPost: number;
  photoPost: number;
}

export async function addPageGraph(fixture: Fixture): Promise<PageGraph> {
  const { alice, bob } = fixture.users;
  const store = fixture.store;
  const created = async (ops: WriteOp[]) => (await store.write(ops)).results as number[];
  const [page, bobsPage] = await created([
    { op: 'createObject', object: { type: 'page', owner: null, createdTime: NOW - 400 * DAY, data: PAGE_DATA } },
    { op: 'createObject', object: { type: 'page', owner: null, createdTime: NOW - 400 * DAY, data: { name: "Bob's Bikes", category: 'Bicycle Shop' } } },
  ]);
  const message = 'Breakfast at Harbor Light Bakery with Bob Brook';
  const [linkPost, photoPost] = await created([
    { op: 'createObject', object: { type: 'post', owner: alice, createdTime: NOW - 2 * DAY, data: {
      message,
      link: 'https://www.example.com/articles/slow-bread',
      name: 'Why slow bread tastes better',
      caption: 'example.com',
      description: 'Long fermentation gives flavour.',
      picture: 'https://images.example.com/previews/slow-bread.jpg',
      picture_width: 1200,
      picture_height: 630,
      message_tags: [
        { id: page, type: 'page', name: 'Harbor Light Bakery', offset: 13, length: 19 },
        { id: bob, type: 'user', name: 'Bob Brook', offset: 38, length: 9 },
      ],
      with_tags: [bob],
      application: fixture.app.id,
      type: 'link',
      status_type: 'shared_story',
      privacy: { value: 'EVERYONE', description: 'Public' },
    } } },
    { op: 'createObject', object: { type: 'post', owner: alice, createdTime: NOW - DAY, data: {
      object_id: String(fixture.photos[0]), message: 'Our holiday', type: 'photo', status_type: 'added_photos', privacy: { value: 'EVERYONE' },
    } } },
  ]);
  const [share] = await created([
    { op: 'createObject', object: { type: 'post', owner: bob, createdTime: NOW - DAY, data: { link: 'https://www.example.com/articles/slow-bread', type: 'link', privacy: { value: 'ALL_FRIENDS' } } } },
  ]);
  await store.write([
    { op: 'addAssoc', type: 'page_admins', id1: alice, id2: page!, time: NOW - 300 * DAY },
    { op: 'addAssoc', type: 'page_admins', id1: bob, id2: bobsPage!, time: NOW - 300 * DAY },
    { op: 'addAssoc', type: 'fans', id1: page!, id2: bob, time: NOW - 30 * DAY },
    { op: 'addAssoc', type: 'fans', id1: page!, id2: alice, time: NOW - 20 * DAY },
    { op: 'addAssoc', type: 'posts', id1: alice, id2: linkPost!, time: NOW - 2 * DAY },
    { op: 'addAssoc', type: 'feed', id1: alice, id2: linkPost!, time: NOW - 2 * DAY },
    { op: 'addAssoc', type: 'tagged', id1: page!, id2: linkPost!, time: NOW - 2 * DAY },
    { op: 'addAssoc', type: 'posts', id1: alice, id2: photoPost!, time: NOW - DAY },
    { op: 'addAssoc', type: 'posts', id1: bob, id2: share!, time: NOW - DAY },
    { op: 'addAssoc', type: 'sharedposts', id1: linkPost!, id2: share!, time: NOW - DAY },
    { op: 'addAssoc', type: 'liked_pages', id1: page!, id2: bobsPage!, time: NOW - DAY },
  ]);
  return { page: page!, bobsPage: bobsPage!, linkPost: linkPost!, photoPost: photoPost! };
}
