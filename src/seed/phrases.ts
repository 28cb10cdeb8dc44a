/**
 * Fragments of text the seeder combines into posts, comments, captions and profile blurbs.
 * Posts are opener + middle + closer so that a few dozen fragments give thousands of messages.
 */
import { phrases, words } from './word-lists.js';

export const POST_OPENERS = phrases(`
  Finally | Well, | Today | So | Honestly, | Quick update: | Big news: | Okay, | This morning | Last night
  Somehow | After three weeks, | Reminder to self: | Fun fact: | Not gonna lie,
`);

export const POST_MIDDLES = phrases(`
  finished the bookshelf I started in spring
  the bakery on the corner has cardamom buns again
  ran my first 10k without stopping
  the garden gave us more tomatoes than we can eat
  the cat learned to open the kitchen drawer
  I fixed the bike myself
  we got tickets for the open-air concert
  the new job is going better than expected
  I tried making bread and it actually rose
  the train was an hour late but the sunset made up for it
  my sister is moving back to town
  I read the whole novel in one sitting
  the kids built a fort that is now load-bearing
  the hike up to the lake was worth every step
  my grandmother taught me her soup recipe
  we painted the living room a colour called "fog"
  the neighbours threw the best street party
  I finally learned to juggle three balls
  the library fines were forgiven
  someone left flowers on every bench in the park
`);

/** Written as strings: a closer may be empty or start with a space. */
export const POST_CLOSERS = [
  '', '', '!', '!!', ' :)', ' :D', '. Life is good.', '. Who else is in?', '. Photos soon.', '. Send help.',
  '. Best week in a while.', '. Still smiling about it.', '. Recommend it to everyone.', '. More on that later.',
] as const;

export const LINK_INTROS = phrases(`
  Worth a read: | This made my day | Interesting article | Saw this and thought of you all
  Can't stop thinking about this one | Good long read for the weekend | Sharing because it matters
`);

export const LINK_SLUGS = words(`
  why-we-sleep-better-in-the-mountains the-secret-life-of-city-foxes ten-bread-mistakes
  how-libraries-are-changing a-short-history-of-the-bicycle the-joy-of-slow-travel what-octopuses-dream-about
  building-a-tiny-house the-science-of-good-coffee learning-a-language-after-forty
  night-skies-without-light-pollution repair-cafes-are-back
`);

export const LINK_HOSTS = words('www.example.com news.example.org blog.example.net magazine.example.com');

export const COMMENTS = phrases(`
  Congrats! | Love this! | So happy for you | Haha, classic | Wow! | Need to try this | Count me in
  This is amazing | Looks great! | Miss you! | Proud of you | Same here | Tell me everything | Beautiful
  Ha! I knew it | When are we doing this again? | You have to show me how | Best news all week
  Okay this is brilliant | Call me later! | Adding this to my list | Absolutely | I was there too! | Go you!
  Yes yes yes
`);

export const ALBUM_NAMES = phrases(`
  Summer by the Lake | Road Trip | Weekend in the City | Garden Diary | Birthday Party | Hiking the Ridge
  Kitchen Experiments | Family Visit | Concert Night | Snow Days | Beach Week | Around the Neighbourhood
  Wedding | New Apartment | Market Mornings | Camping Trip | Cat Photos | Sunsets | Holiday Lights | Old Scans
`);

export const ALBUM_DESCRIPTIONS = phrases(`
  A few favourites. | Mostly blurry, all happy. | What a trip. | Memories worth keeping.
  Too many photos, not sorry. | Taken on my phone.
`);

export const PHOTO_CAPTIONS = phrases(`
  Golden hour | Look at this view | Best day | Found this spot by accident | Us | Guess where
  Not bad for a phone | Worth the climb | Morning light | Dinner is served | Snack break | Sleepy
  On the road again | Home | Throwback
`);

export const PHOTO_SIZES: ReadonlyArray<readonly [number, number]> = [
  [960, 720], [720, 960], [2048, 1536], [1536, 2048], [1080, 1080], [1280, 720], [1920, 1080], [640, 480],
];

export const ABOUTS = phrases(`
  Coffee first, then everything else.
  Collector of maps and houseplants.
  Usually outside.
  Trying to read more and scroll less.
  Amateur baker, professional eater.
  Dog person. Cat tolerated.
  Making things with my hands whenever I can.
  Happiest near water.
`);

export const BIOS = phrases(`
  Grew up by the sea, now I live near a very small river.
  I write code on weekdays and songs on weekends.
  Teacher, runner, terrible gardener.
  Always planning the next trip.
  Lifelong learner and part-time chess loser.
  Nurse by day, stargazer by night.
`);

export const QUOTES = phrases(`
  Do the next right thing.
  Slow is smooth, smooth is fast.
  Leave it better than you found it.
  Be curious, not judgmental.
  The best time to plant a tree was twenty years ago.
  Everything is a rough draft.
`);

export const RELIGIONS = words('Buddhist Christian Hindu Jewish Muslim Agnostic Atheist Spiritual');

export const POLITICAL_VIEWS = words('Liberal Conservative Moderate Libertarian Green Independent');

/** Relationship statuses of people without a partner in the graph. */
export const SINGLE_STATUSES = phrases("Single | Single | Single | It's complicated | Divorced | Widowed");

/** Relationship statuses of people whose partner is a user. */
export const COUPLE_STATUSES = phrases('In a relationship | Engaged | Married | In a domestic partnership');

export const DEVICES: ReadonlyArray<ReadonlyArray<{ hardware?: string; os: string }>> = [
  [{ hardware: 'iPhone', os: 'iOS' }],
  [{ os: 'Android' }],
  [{ hardware: 'iPhone', os: 'iOS' }, { hardware: 'iPad', os: 'iOS' }],
  [{ os: 'Android' }, { hardware: 'iPad', os: 'iOS' }],
];

/** Messages friends leave on each other's walls. */
export const WALL_MESSAGES = phrases(`
  Happy birthday! Hope it is a great one | Great seeing you last weekend! | Thanks for the book, I loved it
  Miss you! Coffee soon? | Congrats on the new job! | Don't forget Saturday! | You left your scarf at ours :)
  Thinking of you today | Welcome back to town! | That was the best dinner, thank you
`);
