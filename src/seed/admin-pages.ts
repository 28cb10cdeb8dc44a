/**
 * The pages people of the demo graph administer: small businesses and clubs, each with the
 * fields a page shows (every name, address and number is invented), and what they post.
 */

interface Category {
  id: string;
  name: string;
}

export interface AdminPage {
  name: string;
  /** The listing categories, with ids in the style of the real ones; the first is the page's category. */
  categoryList: [Category, ...Category[]];
  username: string;
  about: string;
  description: string;
  website: string;
  phone: string;
  location: { street: string; city: string; country: string; zip: string; latitude: number; longitude: number };
  /** Opening hours, or none for pages that are not a place. */
  hours?: Record<string, string>;
}

/** Where a page in Harbor City, the invented town every page is in, stands. */
function inHarborCity(street: string, zip: string, latitude: number, longitude: number): AdminPage['location'] {
  return { street, city: 'Harbor City', country: 'United States', zip, latitude, longitude };
}

const WEEKDAY_HOURS = { mon_1_open: '07:00', mon_1_close: '18:00', tue_1_open: '07:00', tue_1_close: '18:00', wed_1_open: '07:00', wed_1_close: '18:00', thu_1_open: '07:00', thu_1_close: '18:00', fri_1_open: '07:00', fri_1_close: '19:00', sat_1_open: '08:00', sat_1_close: '14:00' };

export const ADMIN_PAGES: readonly AdminPage[] = [
  {
    name: 'Harbor Light Bakery',
    categoryList: [{ id: '197871390225897', name: 'Bakery' }, { id: '128673187201735', name: 'Cafe' }],
    username: 'harborlightbakery',
    about: 'Sourdough, pastries and coffee by the water since 2009.',
    description: 'A neighbourhood bakery baking everything on site each morning: naturally leavened breads, seasonal tarts and the cardamom buns people queue for on Saturdays.',
    website: 'https://harborlight.example.com',
    phone: '+1 555 0142',
    location: inHarborCity('12 Quay Street', '94011', 37.8021, -122.4187),
    hours: WEEKDAY_HOURS,
  },
  {
    name: 'Quiet Trails Photography',
    categoryList: [{ id: '181045748599578', name: 'Photographer' }],
    username: 'quiettrailsphoto',
    about: 'Landscape and trail photography, prints and workshops.',
    description: 'Photographs of the coast and the hills around it, printed on archival paper, and weekend workshops for anyone with a camera and good shoes.',
    website: 'https://quiettrails.example.com',
    phone: '+1 555 0178',
    location: inHarborCity('48 Ridge Road', '94015', 37.7893, -122.4012),
  },
  {
    name: 'The Lantern Reading Club',
    categoryList: [{ id: '2612', name: 'Community Organization' }, { id: '192511100766680', name: 'Book Club' }],
    username: 'lanternreadingclub',
    about: 'One book a month, read together on the first Thursday.',
    description: 'An open reading club meeting at the public library. Anyone is welcome, whether or not they finished the book.',
    website: 'https://lantern-club.example.com',
    phone: '+1 555 0119',
    location: inHarborCity('3 Library Square', '94010', 37.7955, -122.4101),
  },
  {
    name: 'Northside Cycling Collective',
    categoryList: [{ id: '186982054657561', name: 'Sports & Recreation' }],
    username: 'northsidecycling',
    about: 'Group rides for every pace, every Sunday at 8.',
    description: 'A volunteer-run cycling group with a slow, a steady and a fast ride each week, plus a repair evening on Wednesdays.',
    website: 'https://northside-cycling.example.com',
    phone: '+1 555 0163',
    location: inHarborCity('90 Mill Lane', '94018', 37.8112, -122.3954),
  },
  {
    name: 'Copper Kettle Café',
    categoryList: [{ id: '128673187201735', name: 'Cafe' }],
    username: 'copperkettlecafe',
    about: 'Tea, soup and board games.',
    description: 'A small café with a long tea list, a soup of the day and a shelf of board games to borrow.',
    website: 'https://copperkettle.example.com',
    phone: '+1 555 0107',
    location: inHarborCity('5 Market Row', '94012', 37.7988, -122.4233),
    hours: WEEKDAY_HOURS,
  },
];

/** What the pages post: a status, or a link with the preview the page chose for it. */
export const PAGE_STATUSES: readonly string[] = [
  'Open as usual this weekend. Come say hello!',
  'Thank you all for a wonderful month.',
  'We are looking for volunteers for next Saturday.',
  'New season, new schedule: see the pinned post.',
  'A quiet morning and the best light of the week.',
  'Tickets for the spring event are going fast.',
];

/** What a page answers under its own posts. */
export const PAGE_REPLIES: readonly string[] = ['Thank you!', 'See you there!', 'Glad you liked it.', 'Yes, every Saturday.'];

export interface LinkPreview {
  link: string;
  name: string;
  caption: string;
  description: string;
  /** The preview image's slug; its address and size are set where it is written. */
  image: string;
}

export const LINK_PREVIEWS: readonly LinkPreview[] = [
  { link: 'https://www.example.com/articles/slow-bread', name: 'Why slow bread tastes better', caption: 'example.com', description: 'Long fermentation gives flavour, keeps bread fresh and makes it easier to digest.', image: 'slow-bread' },
  { link: 'https://news.example.org/local/coastal-path-reopens', name: 'The coastal path reopens after repairs', caption: 'news.example.org', description: 'Eight months of work on the cliffs are over; the path is open from the harbour to the lighthouse.', image: 'coastal-path' },
  { link: 'https://books.example.net/reviews/the-long-winter', name: 'Review: The Long Winter', caption: 'books.example.net', description: 'A patient, generous novel about a town snowed in for a season.', image: 'long-winter' },
  { link: 'https://www.example.com/guides/first-group-ride', name: 'Your first group ride: a short guide', caption: 'example.com', description: 'What to bring, how to signal and why nobody minds if you are slow.', image: 'group-ride' },
  { link: 'https://travel.example.org/harbor-city-weekend', name: 'A weekend in Harbor City', caption: 'travel.example.org', description: 'Where to eat, walk and read on two days by the sea.', image: 'harbor-weekend' },
];

/** The size every link preview image is given. */
export const PREVIEW_SIZE = { width: 1200, height: 630 };

export function previewImageUrl(slug: string): string {
  return `https://images.example.com/previews/${slug}.jpg`;
}
