/**
 * Pages that act: pages administered by people of the demo graph (the demo user among them),
 * their fans, posts (statuses and links with their previews), an album of photos each, and the
 * demo user's own link posts that tag a page and friends, made through the demo app and shared
 * by friends. Written after everything else, so the ids of the rest of the graph stay as they were.
 */
import type { Ref } from '../store/write-ops.js';
import type { ObjectId } from '../ids.js';
import { BY_PAGE } from '../graph/page-authors.js';
import { PAGE_ADMINS } from '../schema/authors.js';
import { ADMIN_PAGES, LINK_PREVIEWS, PAGE_REPLIES, PAGE_STATUSES, PREVIEW_SIZE, previewImageUrl, type AdminPage, type LinkPreview } from './admin-pages.js';
import { privacyOf } from './privacy.js';
import type { Random } from './random.js';
import { queueComments, queueLikes } from './reactions.js';
import type { SeedContext } from './seed-context.js';
import { iconOf } from './post-content.js';
import { DAY } from './durations.js';

/** How many of the pages the demo user administers. */
const DEMO_ADMIN_PAGES = 2;

export type PageGraphCounts = Record<'adminPages' | 'pagePosts' | 'linkPosts' | 'sharedPosts', number>;

interface WrittenPost {
  id: ObjectId;
  owner: ObjectId;
  time: number;
  preview?: LinkPreview;
}

/** The preview a link post shows, as its stored fields. */
function linkData(preview: LinkPreview): Record<string, unknown> {
  return {
    link: preview.link,
    name: preview.name,
    caption: preview.caption,
    description: preview.description,
    picture: previewImageUrl(preview.image),
    picture_width: PREVIEW_SIZE.width,
    picture_height: PREVIEW_SIZE.height,
    type: 'link',
    status_type: 'shared_story',
    icon: iconOf('link'),
  };
}

function pageData(page: AdminPage, random: Random): Record<string, unknown> {
  return {
    name: page.name,
    category: page.categoryList[0].name,
    category_list: page.categoryList,
    username: page.username,
    about: page.about,
    description: page.description,
    website: page.website,
    phone: page.phone,
    location: page.location,
    ...(page.hours ? { hours: page.hours, checkins: random.int(40, 900), were_here_count: random.int(60, 1500) } : {}),
    talking_about_count: random.int(3, 120),
    is_published: true,
  };
}

/** Writes the pages, their admins, fans and content; then the demo user's tagged link posts and the shares. */
export async function writePageGraph(random: Random, context: SeedContext, appId: ObjectId): Promise<PageGraphCounts> {
  const { buffer, now, people, userIds, friends } = context;
  const counts: PageGraphCounts = { adminPages: ADMIN_PAGES.length, pagePosts: 0, linkPosts: 0, sharedPosts: 0 };
  const pageIds: ObjectId[] = [];
  const pagePosts: WrittenPost[] = [];
  const albums: PageAlbum[] = [];
  const pageDatas: Array<Record<string, unknown>> = [];
  const others = people.length > 1 ? [...people.keys()].slice(1) : [0];

  for (const [index, page] of ADMIN_PAGES.entries()) {
    const created = now - random.int(400, 2000) * DAY;
    const data = pageData(page, random);
    pageDatas[index] = data;
    const pageRef = buffer.create({ type: 'page', owner: null, createdTime: created, updatedTime: created, data }, (id) => (pageIds[index] = id));
    const admins = index < DEMO_ADMIN_PAGES ? [0, ...random.sample(friends[0] ?? [], 1)] : [random.pick(others)];
    for (const admin of admins) buffer.link(PAGE_ADMINS, userIds[admin] as ObjectId, pageRef, created);
    for (const fan of random.sample(userIds, Math.min(userIds.length, random.int(12, 80)))) {
      const time = now - random.int(1, 300) * DAY;
      buffer.link('fans', pageRef, fan, time);
      buffer.link('liked_pages', fan, pageRef, time);
    }
    await buffer.endUnit();
  }
  await buffer.flush();

  for (const [index, page] of ADMIN_PAGES.entries()) {
    const pageId = pageIds[index]!;
    // Pages like the next page of the list (the `likes` edge of later versions).
    const liked = pageIds[(index + 1) % pageIds.length]!;
    buffer.link('liked_pages', pageId, liked, now - random.int(1, 300) * DAY);
    writePageAlbum(random, context, pageId, page, (album) => albums.push({ ...album, pageData: pageDatas[index]! }));
    const postCount = random.int(4, 8);
    for (let i = 0; i < postCount; i++) {
      const time = now - random.int(1, 90) * DAY - random.int(0, DAY - 1);
      const preview = random.chance(0.5) ? random.pick(LINK_PREVIEWS) : undefined;
      const data = {
        message: random.pick(PAGE_STATUSES),
        ...(preview ? linkData(preview) : { type: 'status', status_type: 'mobile_status_update' }),
        privacy: privacyOf('EVERYONE'),
        [BY_PAGE]: true,
      };
      const record: WrittenPost = { id: 0, owner: pageId, time, ...(preview ? { preview } : {}) };
      const post = buffer.create({ type: 'post', owner: pageId, createdTime: time, updatedTime: time, data }, (id) => (record.id = id));
      pagePosts.push(record);
      buffer.link('posts', pageId, post, time);
      buffer.link('feed', pageId, post, time);
      counts.pagePosts++;
    }
    await buffer.endUnit();
  }
  await buffer.flush();
  await writePageAlbumPhotos(random, context, albums);

  for (const post of pagePosts) {
    const audience = random.sample(others, Math.min(others.length, random.int(0, 12)));
    queueLikes(random, context, post.id, post.time, audience);
    const made = queueComments(random, context, post.id, post.time, random.int(0, 4), audience, audience);
    // The page answers under some of its posts that people commented on, as itself.
    if (made.comments > 0 && random.chance(0.5)) {
      const time = Math.min(now - 60, post.time + random.int(600, 2 * DAY));
      const data = { message: random.pick(PAGE_REPLIES), parent: post.id, thread: post.id, [BY_PAGE]: true };
      const reply = buffer.create({ type: 'comment', owner: post.owner, createdTime: time, updatedTime: time, data });
      buffer.link('comments', post.id, reply, time);
      buffer.link('thread_comments', post.id, reply, time);
    }
    await buffer.endUnit();
  }

  // The demo user's link posts, made through the demo app, naming a page she runs and friends she was with.
  const demoFriends = friends[0] ?? [];
  const demoLinks: WrittenPost[] = [];
  for (let i = 0; i < 3; i++) {
    const preview = LINK_PREVIEWS[i % LINK_PREVIEWS.length]!;
    const page = pageIds[i % DEMO_ADMIN_PAGES]!;
    const pageName = ADMIN_PAGES[i % DEMO_ADMIN_PAGES]!.name;
    const withFriends = random.sample(demoFriends, Math.min(demoFriends.length, 2));
    const message = `Read this at ${pageName} this morning.`;
    const time = now - random.int(1, 60) * DAY;
    const data = {
      ...linkData(preview),
      message,
      message_tags: [{ id: page, type: 'page', name: pageName, offset: message.indexOf(pageName), length: pageName.length }],
      with_tags: withFriends.map((friend) => userIds[friend]),
      application: appId,
      privacy: privacyOf('EVERYONE'),
    };
    const record: WrittenPost = { id: 0, owner: userIds[0] as ObjectId, time, preview };
    const post = buffer.create({ type: 'post', owner: userIds[0] as ObjectId, createdTime: time, updatedTime: time, data }, (id) => {
      record.id = id;
      demoLinks.push(record);
    });
    buffer.link('posts', userIds[0] as ObjectId, post, time);
    buffer.link('feed', userIds[0] as ObjectId, post, time);
    buffer.link('tagged', page, post, time);
    counts.linkPosts++;
    await buffer.endUnit();
  }
  await buffer.flush();

  // Friends share the demo user's links, and she shares a post of one of her pages.
  const shares: Array<{ original: WrittenPost; sharer: number }> = [];
  for (const original of demoLinks) for (const sharer of random.sample(demoFriends, Math.min(demoFriends.length, random.int(1, 4)))) shares.push({ original, sharer });
  const pageLink = pagePosts.find((post) => post.preview !== undefined && post.owner === pageIds[0]);
  if (pageLink) shares.push({ original: pageLink, sharer: 0 });
  for (const { original, sharer } of shares) {
    const time = Math.min(now - 60, original.time + random.int(60, 5 * DAY));
    const data = { ...linkData(original.preview!), privacy: privacyOf('ALL_FRIENDS') };
    const share: Ref = buffer.create({ type: 'post', owner: userIds[sharer] as ObjectId, createdTime: time, updatedTime: time, data });
    buffer.link('posts', userIds[sharer] as ObjectId, share, time);
    buffer.link('feed', userIds[sharer] as ObjectId, share, time);
    buffer.link('sharedposts', original.id, share, time);
    counts.sharedPosts++;
    await buffer.endUnit();
  }
  await buffer.flush();
  return counts;
}

/** An album of the page's, public and the page's own; its photos follow once its id is known. */
function writePageAlbum(
  random: Random,
  context: SeedContext,
  pageId: ObjectId,
  page: AdminPage,
  receive: (album: Omit<PageAlbum, 'pageData'>) => void,
): void {
  const created = context.now - random.int(30, 300) * DAY;
  const data = { name: `${page.name}: around the place`, type: 'normal', privacy: 'everyone', [BY_PAGE]: true };
  const album = context.buffer.create({ type: 'album', owner: pageId, createdTime: created, updatedTime: created, data }, (id) =>
    receive({ id, pageId, page, created }),
  );
  context.buffer.link('albums', pageId, album, created);
}

interface PageAlbum {
  id: ObjectId;
  pageId: ObjectId;
  page: AdminPage;
  created: number;
  /** The page's data as written, which its cover photo joins. */
  pageData: Record<string, unknown>;
}

/** The size of the pages' photos. */
const PAGE_PHOTO = { width: 960, height: 720 };

/** A few photos in each page album; the first becomes the page's cover. */
async function writePageAlbumPhotos(random: Random, context: SeedContext, albums: readonly PageAlbum[]): Promise<void> {
  const { buffer } = context;
  const covers: Array<{ album: PageAlbum; photo: ObjectId }> = [];
  for (const album of albums) {
    const { id, pageId, page, created } = album;
    const photoCount = random.int(2, 5);
    for (let i = 0; i < photoCount; i++) {
      const time = created + i * 600;
      const data = { name: `${page.name}, photo ${i + 1}`, ...PAGE_PHOTO, privacy: privacyOf('EVERYONE'), icon: iconOf('photo'), album: id, [BY_PAGE]: true };
      const photo = buffer.create({ type: 'photo', owner: pageId, createdTime: time, updatedTime: time, data }, (photoId) => {
        if (i === 0) covers.push({ album, photo: photoId });
      });
      buffer.link('photos', pageId, photo, time);
      buffer.link('album_photos', id, photo, time);
    }
    await buffer.endUnit();
  }
  await buffer.flush();
  for (const { album, photo } of covers) {
    // The whole page goes with the cover, so the result is the same whether the store merges or replaces data.
    const cover = { cover_id: photo, offset_x: 0, offset_y: random.int(0, 60), ...PAGE_PHOTO };
    buffer.update(album.pageId, { ...album.pageData, cover }, album.created);
  }
  await buffer.flush();
}
