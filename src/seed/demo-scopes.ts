/** Every permission the demo user grants the demo app, so the Explorer can show the whole profile. */
export const DEMO_SCOPES: readonly string[] = [
  'public_profile',
  'email',
  'user_about_me',
  'user_birthday',
  'user_education_history',
  'user_friends',
  'user_hometown',
  'user_likes',
  'user_location',
  'user_photos',
  'user_posts',
  'user_relationships',
  'user_relationship_details',
  'user_religion_politics',
  'user_website',
  'user_work_history',
  'user_events',
  'user_tagged_places',
  'user_videos',
  'user_managed_groups',
  'read_custom_friendlists',
  'publish_actions',
  'rsvp_event',
  'manage_pages',
  'publish_pages',
];

/** Scopes every other app user grants. */
export const APP_USER_BASE_SCOPES: readonly string[] = ['public_profile', 'user_friends'];

/** Scopes other app users grant some of (each on its own chance). */
export const APP_USER_OPTIONAL_SCOPES: readonly string[] = [
  'user_posts',
  'user_photos',
  'user_likes',
  'user_birthday',
  'email',
  'user_location',
];
