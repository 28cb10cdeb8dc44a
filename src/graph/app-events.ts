/**
 * The standard app events: the names the Facebook SDKs log for common moments in an app, each
 * with the parameters that go with it. `/<app>/app_event_types` lists them, in the shape the
 * real service gave its items.
 */
import type { EdgeCatalogue } from '../schema/definition.js';

interface Parameter {
  parameter_name: string;
  display_name: string;
  description: string;
}

const CONTENT_TYPE: Parameter = {
  parameter_name: 'fb_content_type',
  display_name: 'Content Type',
  description: 'What kind of thing the event is about, such as a product, a song or a level.',
};
const CONTENT_ID: Parameter = {
  parameter_name: 'fb_content_id',
  display_name: 'Content ID',
  description: "The app's own identifier of the thing the event is about, such as a product code.",
};
const CURRENCY: Parameter = {
  parameter_name: 'fb_currency',
  display_name: 'Currency',
  description: 'The ISO 4217 code of the currency the value to sum is counted in, such as USD.',
};
const NUM_ITEMS: Parameter = {
  parameter_name: 'fb_num_items',
  display_name: 'Number of Items',
  description: 'How many items the person is buying.',
};
const SUCCESS: Parameter = {
  parameter_name: 'fb_success',
  display_name: 'Success',
  description: 'Whether the step went through: 1 for yes, 0 for no.',
};

function event(event_name: string, display_name: string, description: string, parameters: Parameter[] = []) {
  return { event_name, display_name, description, parameters };
}

export const STANDARD_APP_EVENTS: EdgeCatalogue = {
  label: 'ApplicationAppEventTypes',
  items: [
    event('fb_mobile_achievement_unlocked', 'Achievements Unlocked', 'A person reached one of the achievements the app defines.', [
      { parameter_name: 'fb_description', display_name: 'Description', description: 'Which achievement was reached, in words.' },
    ]),
    event('fb_mobile_activate_app', 'Launched App', 'A person opened the app or brought it back to the foreground.'),
    event('fb_mobile_add_payment_info', 'Added Payment Info', 'A person entered payment details while checking out.', [SUCCESS]),
    event('fb_mobile_add_to_cart', 'Added to Cart', 'A person put an item in their shopping cart.', [CONTENT_TYPE, CONTENT_ID, CURRENCY]),
    event('fb_mobile_add_to_wishlist', 'Added to Wishlist', 'A person saved an item to a wishlist for later.', [CONTENT_TYPE, CONTENT_ID, CURRENCY]),
    event('fb_mobile_complete_registration', 'Completed Registration', 'A person finished signing up for the app.', [
      { parameter_name: 'fb_registration_method', display_name: 'Registration Method', description: 'How the person signed up, such as with Facebook or an email address.' },
    ]),
    event('fb_mobile_content_view', 'Content Views', 'A person looked at a piece of content, such as a product page or an article.', [CONTENT_TYPE, CONTENT_ID, CURRENCY]),
    event('fb_mobile_initiated_checkout', 'Initiated Checkout', 'A person started paying for what is in their cart.', [
      CONTENT_TYPE,
      CONTENT_ID,
      NUM_ITEMS,
      { parameter_name: 'fb_payment_info_available', display_name: 'Payment Info Available', description: 'Whether the app already holds payment details for the person: 1 for yes, 0 for no.' },
      CURRENCY,
    ]),
    event('fb_mobile_level_achieved', 'Levels Achieved', 'A person reached a new level in a game.', [
      { parameter_name: 'fb_level', display_name: 'Level', description: 'The level that was reached.' },
    ]),
    event('fb_mobile_purchase', 'Purchases', 'A person completed a purchase; the value to sum is what they paid.', [NUM_ITEMS, CONTENT_TYPE, CONTENT_ID, CURRENCY]),
    event('fb_mobile_rate', 'Rated', 'A person gave something in the app a rating; the value to sum is the rating.', [
      CONTENT_TYPE,
      CONTENT_ID,
      { parameter_name: 'fb_max_rating_value', display_name: 'Max Rating Value', description: 'The highest rating the scale allows, such as 5 for five stars.' },
    ]),
    event('fb_mobile_search', 'Searched', 'A person searched within the app.', [
      CONTENT_TYPE,
      { parameter_name: 'fb_search_string', display_name: 'Search String', description: 'The words the person searched for.' },
      SUCCESS,
    ]),
    event('fb_mobile_spent_credits', 'Credit Spends', 'A person spent credits or other in-app currency; the value to sum is how many.', [CONTENT_TYPE, CONTENT_ID]),
    event('fb_mobile_tutorial_completion', 'Completed Tutorial', 'A person finished the tutorial that introduces the app.', [SUCCESS, CONTENT_ID]),
  ],
};
