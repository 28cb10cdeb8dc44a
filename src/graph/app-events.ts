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

function parameter(parameter_name: string, display_name: string, description: string): Parameter {
  return { parameter_name, display_name, description };
}

const CONTENT_TYPE = parameter('fb_content_type', 'Content Type', 'What kind of thing the event is about, such as a product, a song or a level.');
const CONTENT_ID = parameter('fb_content_id', 'Content ID', "The app's own identifier of the thing the event is about, such as a product code.");
const CURRENCY = parameter('fb_currency', 'Currency', 'The ISO 4217 code of the currency the value to sum is counted in, such as USD.');
const NUM_ITEMS = parameter('fb_num_items', 'Number of Items', 'How many items the person is buying.');
const SUCCESS = parameter('fb_success', 'Success', 'Whether the step went through: 1 for yes, 0 for no.');

function event(event_name: string, display_name: string, description: string, parameters: Parameter[] = []) {
  return { event_name, display_name, description, parameters };
}

export const STANDARD_APP_EVENTS: EdgeCatalogue = {
  label: 'ApplicationAppEventTypes',
  items: [
    event('fb_mobile_achievement_unlocked', 'Achievements Unlocked', 'A person reached one of the achievements the app defines.', [
      parameter('fb_description', 'Description', 'Which achievement was reached, in words.'),
    ]),
    event('fb_mobile_activate_app', 'Launched App', 'A person opened the app or brought it back to the foreground.'),
    event('fb_mobile_add_payment_info', 'Added Payment Info', 'A person entered payment details while checking out.', [SUCCESS]),
    event('fb_mobile_add_to_cart', 'Added to Cart', 'A person put an item in their shopping cart.', [CONTENT_TYPE, CONTENT_ID, CURRENCY]),
    event('fb_mobile_add_to_wishlist', 'Added to Wishlist', 'A person saved an item to a wishlist for later.', [CONTENT_TYPE, CONTENT_ID, CURRENCY]),
    event('fb_mobile_complete_registration', 'Completed Registration', 'A person finished signing up for the app.', [
      parameter('fb_registration_method', 'Registration Method', 'How the person signed up, such as with Facebook or an email address.'),
    ]),
    event('fb_mobile_content_view', 'Content Views', 'A person looked at a piece of content, such as a product page or an article.', [CONTENT_TYPE, CONTENT_ID, CURRENCY]),
    event('fb_mobile_initiated_checkout', 'Initiated Checkout', 'A person started paying for what is in their cart.', [
      CONTENT_TYPE,
      CONTENT_ID,
      NUM_ITEMS,
      parameter('fb_payment_info_available', 'Payment Info Available', 'Whether the app already holds payment details for the person: 1 for yes, 0 for no.'),
      CURRENCY,
    ]),
    event('fb_mobile_level_achieved', 'Levels Achieved', 'A person reached a new level in a game.', [
      parameter('fb_level', 'Level', 'The level that was reached.'),
    ]),
    event('fb_mobile_purchase', 'Purchases', 'A person completed a purchase; the value to sum is what they paid.', [NUM_ITEMS, CONTENT_TYPE, CONTENT_ID, CURRENCY]),
    event('fb_mobile_rate', 'Rated', 'A person gave something in the app a rating; the value to sum is the rating.', [
      CONTENT_TYPE,
      CONTENT_ID,
      parameter('fb_max_rating_value', 'Max Rating Value', 'The highest rating the scale allows, such as 5 for five stars.'),
    ]),
    event('fb_mobile_search', 'Searched', 'A person searched within the app.', [
      CONTENT_TYPE,
      parameter('fb_search_string', 'Search String', 'The words the person searched for.'),
      SUCCESS,
    ]),
    event('fb_mobile_spent_credits', 'Credit Spends', 'A person spent credits or other in-app currency; the value to sum is how many.', [CONTENT_TYPE, CONTENT_ID]),
    event('fb_mobile_tutorial_completion', 'Completed Tutorial', 'A person finished the tutorial that introduces the app.', [SUCCESS, CONTENT_ID]),
  ],
};
