/**
 * Pages people list on their profiles (languages, sports, teams, athletes, inspirational people)
 * and the pages they like. Every name is invented.
 */

export const LANGUAGES = [
  'English', 'Spanish', 'French', 'German', 'Portuguese', 'Italian', 'Dutch', 'Japanese', 'Mandarin Chinese',
  'Arabic', 'Hindi', 'Swedish', 'Polish', 'Turkish',
] as const;

export const SPORTS = [
  'Running', 'Swimming', 'Cycling', 'Tennis', 'Basketball', 'Soccer', 'Climbing', 'Yoga', 'Rowing', 'Skiing',
] as const;

export const FAVORITE_TEAMS = [
  'Harbor City Gulls', 'Northfield Comets', 'Red Valley Rovers', 'Ashford Anchors', 'Lakeside Lynx',
  'Granite Bay Giants', 'Eastmere Eagles', 'Coastal Foxes',
] as const;

export const FAVORITE_ATHLETES = [
  'Maris Kallenberg', 'Tomas Oyelaran', 'Dani Westergaard', 'Rico Almandine', 'Sunniva Brecker',
  'Jalen Okonkwo-Reyes', 'Petra Lindenfels', 'Kofi Amstrand',
] as const;

export const INSPIRATIONAL_PEOPLE = [
  'Grandma Ilse', 'Coach Delmar Pryce', 'Dr. Amaya Sorrell', 'Professor Ruben Kettering', 'Miss Odette Vail',
  'Captain Harlan Moss',
] as const;

export interface LikeablePage {
  name: string;
  category: string;
  about: string;
}

export const LIKEABLE_PAGES: readonly LikeablePage[] = [
  { name: 'The Paper Lanterns', category: 'Musician/Band', about: 'Indie folk from a very small garage.' },
  { name: 'Velvet Static', category: 'Musician/Band', about: 'Loud guitars, quiet people.' },
  { name: 'Moonlit Harbour', category: 'Musician/Band', about: 'Dream pop for long drives.' },
  { name: 'The Copper Kettles', category: 'Musician/Band', about: 'Bluegrass with too many banjos.' },
  { name: 'Nova & the Tides', category: 'Musician/Band', about: 'Synth-soul duo.' },
  { name: 'Orchestra of Small Hours', category: 'Musician/Band', about: 'Chamber music for night owls.' },
  { name: 'The Last Lighthouse', category: 'Movie', about: 'A keeper, a storm and a secret.' },
  { name: 'Gravity of Tuesdays', category: 'Movie', about: 'A comedy about a week that never ends.' },
  { name: 'Paper Moons Over Lisbon', category: 'Movie', about: 'Two strangers, one tram, one summer.' },
  { name: 'Station Eleven Degrees', category: 'Movie', about: 'Science fiction in a very cold place.' },
  { name: 'The Quiet Orchard', category: 'Movie', about: 'A family drama in four seasons.' },
  { name: 'Salt and Cedar', category: 'Book', about: 'A novel of the northern coast.' },
  { name: 'The Cartographer\'s Daughter', category: 'Book', about: 'Maps, lies and a missing island.' },
  { name: 'Small Engines of Joy', category: 'Book', about: 'Essays on tinkering.' },
  { name: 'A Field Guide to Clouds', category: 'Book', about: 'Look up more often.' },
  { name: 'Midnight at the Library', category: 'Book', about: 'A mystery between the stacks.' },
  { name: 'Harbor City Gulls', category: 'Sports Team', about: 'Official page of the Gulls.' },
  { name: 'Northfield Comets', category: 'Sports Team', about: 'Go Comets!' },
  { name: 'Red Valley Rovers', category: 'Sports Team', about: 'Since 1911.' },
  { name: 'Lakeside Lynx', category: 'Sports Team', about: 'Fast, fierce, furry.' },
  { name: 'Brightbean Coffee', category: 'Food/Beverages', about: 'Roasted slowly, served quickly.' },
  { name: 'Trailmark Boots', category: 'Clothing', about: 'Made for mud.' },
  { name: 'Pixelpress Cameras', category: 'Electronics', about: 'Cameras for people who print their photos.' },
  { name: 'Sproutbox', category: 'Food/Beverages', about: 'Vegetables at your door every week.' },
  { name: 'Loop Cycles', category: 'Bicycle Shop', about: 'Repairs, rentals and good advice.' },
  { name: 'Aurora Ice Cream', category: 'Food/Beverages', about: 'Forty flavours and counting.' },
  { name: 'Wildfern Tea House', category: 'Restaurant/Cafe', about: 'Loose leaf tea and scones.' },
  { name: 'Open Sky Festival', category: 'Event', about: 'Three days of music under the stars.' },
  { name: 'Tinker Lab Makerspace', category: 'Community', about: 'Tools, classes and coffee.' },
  { name: 'Daily Dose of Otters', category: 'Entertainment', about: 'One otter picture every day.' },
  { name: 'Rainy Day Recipes', category: 'Community', about: 'Comfort food, shared.' },
  { name: 'Starlight Observatory', category: 'Museum/Art Gallery', about: 'Public nights every Friday.' },
];
