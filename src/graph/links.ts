/** Addresses of nodes on the profile host, as the real service words them. */
import type { FieldContext } from '../schema/definition.js';
import type { StoredNode } from '../schema/stored-node.js';
import { silhouetteUrl } from '../schema/media.js';

export function photoLink(object: StoredNode, context: FieldContext): string {
  return `${context.profileHost}/photo.php?fbid=${object.id}`;
}

export function albumLink(object: StoredNode, context: FieldContext): string {
  return `${context.profileHost}/album.php?fbid=${object.id}`;
}

/** A page is addressed by its username when it has one. */
export function pageLink(object: StoredNode, context: FieldContext): string {
  return `${context.profileHost}/${typeof object.data.username === 'string' ? object.data.username : object.id}`;
}

export function appLink(object: StoredNode, context: FieldContext): string {
  return `${context.profileHost}/apps/application.php?id=${object.id}`;
}

/** Every group gets an address people can mail posts to. */
export function groupEmail(object: StoredNode): string {
  return `${object.id}@groups.facebook.com`;
}

/** The small icon beside a group's name, or a video in a v2.0 list: one image Loom serves. */
export function smallIcon(_object: StoredNode, context: FieldContext): string {
  return silhouetteUrl(context.publicUrl);
}
