/**
 * The code the built-in Graph declaration (graph-v2.4.loom.yaml) names: computed fields, the
 * Graph's visibilities, the edges answered by something other than a list, and the POST
 * protocols. Every name the declaration uses is checked against these tables at start.
 */
import type { CodeModule, CodeVisibility, EdgeBehavior } from '../declared/model.js';
import type { NonUserRule } from '../schema/definition.js';
import { messageTagList, messageTags, postActions, postFullPicture, postPicture } from './post-parts.js';
import {
  addPhotoToAlbum, befriend, commentOnObject, createAlbum, likeObject, postToFeed, postToGroup, postToPageFeed, rsvp, uploadPhoto, uploadVideo, uploadVideoTo,
} from './posts.js';
import { STANDARD_APP_EVENTS } from './app-events.js';
import { eventLocation, eventVenue } from './event-place.js';
import { postPrivacy, videoPrivacy } from './post-privacy.js';
import { privacySetting, privacyWord } from './privacy-audience.js';
import { albumLink, appLink, groupEmail, pageLink, photoLink, smallIcon } from './links.js';
import { pageCover, photoImages, photoPicture, photoSource, videoEmbeddable, videoEmbedHtml, videoFormats, videoPermalink, videoPicture, videoSource, videoStatus } from './media-fields.js';
import { pageAccountItems } from './page-accounts.js';
import { ageRange, isVerified, nameFormat, profileLink, tokenForBusiness } from './person.js';
import { friendRequestItems, placeTagItems, relativeItems, taggableFriendItems } from './person-items.js';
import { membersOnly, ownNodeOnly } from './post-checks.js';
import { withTagging } from './post-tags.js';
import { attachments, idsForBusiness, permissions, picture, thumbnails } from './special-edges.js';
import { createTestUser, testUserItems, testUserWrites } from './test-users.js';
import { graphWrites } from './write-policy.js';
import { canReply, isHidden, isPublished, never, viewerIsPerson, viewerOwns } from './viewer-flags.js';

/**
 * A person's public profile: all an app they never used may read of them, wherever they acted
 * on something its viewer may read (a like, a comment, a post on a wall, an RSVP).
 */
const PUBLIC_PROFILE = ['id', 'name', 'first_name', 'last_name', 'picture'];

/** The association whose people see what a person shares with friends. */
const FRIENDS = 'friends';

/** What people who never used the app wrote stays closed to it, as their timeline does. */
const theirOwn: NonUserRule = { authored: 'hidden' };

const visibilities: Record<string, CodeVisibility> = {
  public: 'public',
  owner: 'owner',
  person: { sees: 'public', nonUsers: { profile: PUBLIC_PROFILE } },
  /** `data.privacy.value`: EVERYONE, ALL_FRIENDS (the default) or SELF; written on an app user's wall, it shows whoever wrote it. */
  postPrivacy: { sees: { audience: privacySetting, circle: FRIENDS }, nonUsers: { authored: 'hidden', unlessTo: 'to' } },
  /** `data.privacy` as the plain word albums show. */
  albumPrivacy: { sees: { audience: privacyWord, circle: FRIENDS }, nonUsers: theirOwn },
  // Comments written before the thread was stored name only their parent, which leads to it.
  // Whoever wrote one shows with it: a comment is seen as its thread is.
  commentThread: { follows: ['thread', 'parent'] },
  // An open event is public; any other (friends-only, secret) is seen by those invited.
  eventGuests: { sees: { word: 'privacy', open: ['OPEN'], members: 'invited' }, nonUsers: theirOwn },
  // Anyone finds an open or closed group; a secret one only its members.
  groupMembers: { sees: { word: 'privacy', open: ['OPEN', 'CLOSED'], members: 'members' }, nonUsers: theirOwn },
};

const behaviors: Record<string, EdgeBehavior> = {
  // Edges answered wholly by code of their own.
  picture: { special: picture }, permissions: { special: permissions }, idsForBusiness: { special: idsForBusiness },
  thumbnails: { special: thumbnails }, attachments: { special: attachments },
  // Edges whose items code makes from what is stored.
  friendRequest: { items: friendRequestItems }, testUser: { items: testUserItems }, pageAccount: { items: pageAccountItems },
  relative: { items: relativeItems }, taggableFriend: { items: taggableFriendItems }, placeTag: { items: placeTagItems },
  appEventTypes: { catalogue: STANDARD_APP_EVENTS },
};

const graphCode: CodeModule = {
  computed: {
    ageRange, profileLink, isVerified, nameFormat, tokenForBusiness,
    viewerOwns, viewerIsPerson, canReply, never, isHidden, isPublished,
    photoLink, albumLink, pageLink, appLink, groupEmail, smallIcon, eventLocation, eventVenue,
    photoSource, photoPicture, photoImages, videoSource, videoPicture, videoEmbedHtml, videoFormats, videoPermalink, pageCover,
    videoPrivacy, videoStatus, videoEmbeddable,
    postActions, postPicture, postFullPicture, postPrivacy, messageTags, messageTagList,
  },
  visibilities,
  behaviors,
  posts: {
    postToFeed: withTagging(postToFeed), postToPageFeed: withTagging(postToPageFeed), postToGroup, likeObject, commentOnObject,
    uploadPhoto, addPhotoToAlbum, createAlbum, befriend, createTestUser,
    uploadVideo, uploadVideoToPage: uploadVideoTo(ownNodeOnly), uploadVideoToGroup: uploadVideoTo(membersOnly),
    rsvpAttending: rsvp('attending'), rsvpMaybe: rsvp('maybe'), rsvpDeclined: rsvp('declined'),
  },
  appWrites: testUserWrites,
  writePolicy: graphWrites,
};

export default graphCode;
