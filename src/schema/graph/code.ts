/**
 * The code the built-in Graph declaration (graph-v2.4.loom.yaml) names: computed fields, the
 * Graph's visibilities, the edges answered by something other than a list, and the POST
 * protocols. Every name the declaration uses is checked against these tables at start.
 */
import type { CodeModule, EdgeBehavior } from '../../declared/model.js';
import type { Visibility } from '../definition.js';
import { messageTagList, messageTags, postActions, postFullPicture, postPicture } from '../post-parts.js';
import {
  addPhotoToAlbum, befriend, commentOnObject, createAlbum, createTestUser, likeObject, postToFeed, postToGroup, postToPageFeed, rsvp, uploadPhoto, uploadVideo, uploadVideoTo,
} from '../writes.js';
import { STANDARD_APP_EVENTS } from './app-events.js';
import { albumLink, appLink, groupEmail, groupIcon, pageLink, photoLink } from './links.js';
import { pageCover, photoImages, photoPicture, photoSource, videoEmbedHtml, videoFormats, videoPermalink, videoPicture, videoSource } from './media-fields.js';
import { ageRange, isVerified, nameFormat, profileLink, tokenForBusiness } from './person.js';
import { canReply, isHidden, isPublished, never, viewerIsPerson, viewerOwns } from './viewer-flags.js';

const visibilities: Record<string, Visibility> = {
  public: 'public',
  owner: 'owner',
  /** `data.privacy.value`: EVERYONE, ALL_FRIENDS (the default) or SELF. */
  postPrivacy: 'privacy',
  /** `data.privacy` as the plain word albums show. */
  albumPrivacy: 'privacyWord',
  // Comments written before the thread was stored name only their parent, which leads to it.
  commentThread: { follows: ['thread', 'parent'] },
  // An open event is public; any other (friends-only, secret) is seen by those invited.
  eventGuests: { word: 'privacy', open: ['OPEN'], members: 'invited' },
  // Anyone finds an open or closed group; a secret one only its members.
  groupMembers: { word: 'privacy', open: ['OPEN', 'CLOSED'], members: 'members' },
};

const behaviors: Record<string, EdgeBehavior> = {
  picture: { special: 'picture' },
  permissions: { special: 'permissions' },
  idsForBusiness: { special: 'idsForBusiness' },
  thumbnails: { special: 'thumbnails' },
  attachments: { special: 'attachments' },
  friendRequest: { items: 'friendRequest' },
  testUser: { items: 'testUser' },
  pageAccount: { items: 'pageAccount' },
  relative: { items: 'relative' },
  taggableFriend: { items: 'taggableFriend' },
  placeTag: { items: 'placeTag' },
  appEventTypes: { catalogue: STANDARD_APP_EVENTS },
};

const graphCode: CodeModule = {
  computed: {
    ageRange, profileLink, isVerified, nameFormat, tokenForBusiness,
    viewerOwns, viewerIsPerson, canReply, never, isHidden, isPublished,
    photoLink, albumLink, pageLink, appLink, groupEmail, groupIcon,
    photoSource, photoPicture, photoImages, videoSource, videoPicture, videoEmbedHtml, videoFormats, videoPermalink, pageCover,
    postActions, postPicture, postFullPicture, messageTags, messageTagList,
  },
  visibilities,
  behaviors,
  posts: {
    postToFeed, postToPageFeed, postToGroup, likeObject, commentOnObject,
    uploadPhoto, addPhotoToAlbum, createAlbum, befriend, createTestUser,
    uploadVideo, uploadVideoToPage: uploadVideoTo('self'), uploadVideoToGroup: uploadVideoTo('members'),
    rsvpAttending: rsvp('attending'), rsvpMaybe: rsvp('maybe'), rsvpDeclined: rsvp('declined'),
  },
};

export default graphCode;
