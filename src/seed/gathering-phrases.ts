/** Words for the demo graph's events, groups and videos. */
import { phrases } from './word-lists.js';

export const EVENT_NAMES = phrases(`
  Summer Barbecue | Book Club Night | Board Game Evening | Charity 5K Run | Open Mic Night
  Farmers Market Morning | Birthday Dinner | Hackathon Weekend | Photography Walk | Jazz in the Park
  Pottery Workshop | Trivia Night | Beach Cleanup | Film Screening | Housewarming Party | Community Garden Day
  Karaoke Night | Wine Tasting | Climbing Meetup | Holiday Potluck
`);

export const EVENT_DESCRIPTIONS = phrases(`
  Everyone is welcome, bring a friend.
  Snacks provided; bring something to share if you can.
  We will start on time, so come a little early.
  Tickets at the door. All proceeds go to the food bank.
  Casual and relaxed: come and go as you like.
`);

export const VENUES = phrases(`
  Community Hall | Riverside Park | The Old Mill | Public Library | Corner Café | Town Square
`);

/** The IANA time zone an event in a city of this UTC offset takes place in. */
export const TIME_ZONES: Readonly<Record<number, string>> = {
  [-8]: 'America/Los_Angeles',
  [-7]: 'America/Denver',
  [-6]: 'America/Chicago',
  [-5]: 'America/New_York',
  [-4]: 'America/Halifax',
  0: 'Europe/London',
  1: 'Europe/Paris',
  10: 'Australia/Melbourne',
};

export const GROUP_NAMES = phrases(`
  Neighbourhood Swap | Weekend Hikers | Home Bakers | Indie Game Makers | Urban Gardeners | Vintage Bicycles
  Language Exchange | Parents of the Valley | Film Photography | Running Buddies | Knitting Circle
  Local Musicians | Chess Players | Sourdough Society | Birdwatchers
`);

export const GROUP_DESCRIPTIONS = phrases(`
  A place to share tips, ask questions and meet up.
  Be kind, stay on topic, and no selling.
  For everyone who loves this as much as we do.
  Share what you made this week!
`);

export const GROUP_POSTS = phrases(`
  Who is coming on Saturday?
  Found this great guide, sharing it here.
  Welcome to all the new members!
  Does anyone have a recommendation for a beginner?
  Thanks everyone for a wonderful meetup.
  Reminder: the next meeting moved to Thursday.
`);

export const EVENT_WALL_POSTS = phrases(`
  Can't wait!
  Is there parking nearby?
  Bringing dessert.
  Running a few minutes late, save me a seat.
  That was so much fun, thanks for organising!
`);

export const VIDEO_TITLES = phrases(`
  Sunset timelapse | First ride without training wheels | Concert highlights | Cooking pasta from scratch
  Snowy morning | Dog meets the sea | Garden tour | Road trip day one | Birthday surprise | Waterfall hike
`);

export const VIDEO_DESCRIPTIONS = phrases(`
  Had to share this one.
  Best moment of the week.
  Filmed on my phone, sorry about the shaking.
  Turn the sound on!
`);
