/**
 * What the demo graph's user edges are made of beyond the core graph: the page categories each
 * liked-pages edge lists, television shows and games to like, venues to check in at, kinds of
 * relative and friend list, and the words of check-ins. Every name is invented.
 */
import type { Gender } from './people.js';

/** The association listing a person's liked pages of each category, by the page category. */
export const LIKED_BY_CATEGORY: Readonly<Record<string, string>> = {
  Book: 'liked_books',
  Movie: 'liked_movies',
  'Musician/Band': 'liked_music',
  'TV Show': 'liked_television',
  'Games/Toys': 'liked_games',
};

export const EXTRA_LIKEABLE_PAGES = [
  { name: 'The Lighthouse Keepers', category: 'TV Show', about: 'A drama in six seasons on a windy coast.' },
  { name: 'Kitchen Detectives', category: 'TV Show', about: 'Two chefs solve mysteries between courses.' },
  { name: 'Orbit Street', category: 'TV Show', about: 'A sitcom on the first street on the moon.' },
  { name: 'Wild Gardens', category: 'TV Show', about: 'A nature series about back yards.' },
  { name: 'Tidewater Tactics', category: 'Games/Toys', about: 'A strategy game of harbours and storms.' },
  { name: 'Pocket Orchard', category: 'Games/Toys', about: 'Grow a tiny orchard, one tap at a time.' },
  { name: 'Skyline Racers', category: 'Games/Toys', about: 'Rooftop racing for up to eight players.' },
  { name: 'Word Lantern', category: 'Games/Toys', about: 'A word puzzle that lights up at night.' },
] as const;

export interface Venue {
  name: string;
  category: string;
  street: string;
  /** Index into CITIES. */
  city: number;
  latitude: number;
  longitude: number;
}

export const VENUES: readonly Venue[] = [
  { name: 'Riverside Bakehouse', category: 'Restaurant/Cafe', street: '12 Water Street', city: 0, latitude: 45.5231, longitude: -122.6765 },
  { name: 'Summit Trailhead', category: 'Park', street: '1 Ridge Road', city: 4, latitude: 39.7392, longitude: -104.9903 },
  { name: 'Old Mill Cinema', category: 'Movie Theater', street: '88 Mill Lane', city: 6, latitude: 30.2672, longitude: -97.7431 },
  { name: 'Harbourfront Market', category: 'Shopping/Retail', street: '5 Quay Street', city: 16, latitude: 43.6532, longitude: -79.3832 },
  { name: 'Tram 28 Café', category: 'Restaurant/Cafe', street: 'Rua das Flores 28', city: 22, latitude: 38.7223, longitude: -9.1393 },
  { name: 'Canal Bookshop', category: 'Book Store', street: '3 Canal Walk', city: 19, latitude: 51.4545, longitude: -2.5879 },
];

export const CHECKIN_MESSAGES = [
  'Best coffee in town, as always.',
  'Finally made it here!',
  'Great evening with great people.',
  'Sunday well spent.',
  'Could stay here all day.',
  'Worth the trip.',
  'Back at our favourite spot.',
  'Celebrating with the crew.',
];

export const TAGGED_MESSAGES = [
  'Look who I ran into!',
  'Such a fun day together.',
  'Thanks for the company today.',
  'Reunited at last.',
  'Road trip memories.',
];

/** A relationship and what the relative calls the person back, by the person's gender. */
export const KINSHIPS: ReadonlyArray<{ name: Record<Gender, string>; inverse: Record<Gender, string> }> = [
  { name: { female: 'sister', male: 'brother' }, inverse: { female: 'sister', male: 'brother' } },
  { name: { female: 'cousin', male: 'cousin' }, inverse: { female: 'cousin', male: 'cousin' } },
  { name: { female: 'mother', male: 'father' }, inverse: { female: 'daughter', male: 'son' } },
  { name: { female: 'aunt', male: 'uncle' }, inverse: { female: 'niece', male: 'nephew' } },
];

export const FRIEND_LISTS = [
  { name: 'Close Friends', list_type: 'close_friends' },
  { name: 'Acquaintances', list_type: 'acquaintances' },
  { name: 'Book Club', list_type: 'user_created' },
] as const;
