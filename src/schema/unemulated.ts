/**
 * Edges of products Loom does not emulate (ads, payments, business manager, insights, messaging,
 * games and app requests), with what the real v2.4 service answered an ordinary app asking for
 * them with a person's token: a permission or product error, or for products whose data such an
 * app never has, an empty page. The engine answers these edges from this table alone.
 */
export type UnemulatedAnswer =
  /**
   * The request fails with this OAuthException: a refused permission (status 403, as a missing
   * permission is answered) or a product the app may not use (status 400).
   */
  | { kind: 'error'; code: number; message: string; refusal: 'permission' | 'product' }
  /** `{"data":[]}`: the real service held nothing for an ordinary app here. */
  | { kind: 'empty' };

export interface UnemulatedEdge {
  /** Node type name and edge name. */
  type: string;
  edge: string;
  /** The product the edge belongs to. */
  product: string;
  answer: UnemulatedAnswer;
}

/** Marketing API: an app not admitted to it, however the person answered. */
const ADS: UnemulatedAnswer = {
  kind: 'error',
  code: 294,
  message: '(#294) Managing advertisements requires the extended permission ads_management and an application that is whitelisted to access the Ads API',
  refusal: 'permission',
};
/** Products an ordinary app has no access to at all (business manager, payments). */
const NO_CAPABILITY: UnemulatedAnswer = {
  kind: 'error',
  code: 3,
  message: '(#3) Application does not have the capability to make this API call.',
  refusal: 'product',
};
/** A person's messages: read_mailbox, which no ordinary app held. */
const MAILBOX: UnemulatedAnswer = { kind: 'error', code: 298, message: '(#298) Requires extended permission: read_mailbox', refusal: 'permission' };
const EMPTY: UnemulatedAnswer = { kind: 'empty' };

function permissionNeeded(scope: string): UnemulatedAnswer {
  return { kind: 'error', code: 200, message: `(#200) Requires extended permission: ${scope}`, refusal: 'permission' };
}

const user = (edge: string, product: string, answer: UnemulatedAnswer): UnemulatedEdge => ({ type: 'user', edge, product, answer });

export const UNEMULATED_EDGES: readonly UnemulatedEdge[] = [
  user('adaccounts', 'Ads', ADS),
  user('adaccountgroups', 'Ads', ADS),
  user('adcontracts', 'Ads', ADS),
  user('commission_splits', 'Ads', ADS),
  user('promotable_domains', 'Ads', ADS),
  user('promotable_events', 'Ads', ADS),
  user('adnetworkanalytics', 'Audience Network insights', permissionNeeded('read_audience_network_insights')),
  user('insights', 'Insights', permissionNeeded('read_insights')),
  user('businesses', 'Business Manager', NO_CAPABILITY),
  user('businesssettinglogs', 'Business Manager', NO_CAPABILITY),
  user('brand_teams', 'Business Manager', NO_CAPABILITY),
  user('domains', 'Business Manager', NO_CAPABILITY),
  user('payments', 'Payments', NO_CAPABILITY),
  user('payment_transactions', 'Payments', NO_CAPABILITY),
  user('payment.subscriptions', 'Payments', NO_CAPABILITY),
  user('inbox', 'Messaging', MAILBOX),
  user('outbox', 'Messaging', MAILBOX),
  user('threads', 'Messaging', MAILBOX),
  user('conversations', 'Messaging', MAILBOX),
  user('updates', 'Messaging', MAILBOX),
  user('pokes', 'Messaging', MAILBOX),
  user('notifications', 'Notifications', permissionNeeded('manage_notifications')),
  user('invitable_friends', 'Games', { kind: 'error', code: 15, message: '(#15) This method is only accessible to Games.', refusal: 'product' }),
  user('achievements', 'Games', EMPTY),
  user('scores', 'Games', EMPTY),
  user('apprequests', 'App requests', EMPTY),
  user('apprequestformerrecipients', 'App requests', EMPTY),
  user('favorite_requests', 'App requests', EMPTY),
  user('request_history', 'App requests', EMPTY),
  user('platformrequests', 'App requests', EMPTY),
  user('applications', 'App development', EMPTY),
  user('ownerapps', 'App development', EMPTY),
  user('objects', 'Open Graph', EMPTY),
  user('integrated_plugin_feed', 'Social plugins', EMPTY),
  user('screennames', 'Messaging', EMPTY),
  user('stream_filters', 'News feed filters', EMPTY),
  user('notify_me', 'Page notifications', EMPTY),
  user('ratings', 'Page ratings', EMPTY),
  user('privacy_options', 'Audience selector', EMPTY),
  user('locations', 'Location stories (retired with v2.0)', EMPTY),
  user('video_broadcasts', 'Live video', EMPTY),
  user('admined_groups', 'Groups administration', EMPTY),
];

const byKey = new Map(UNEMULATED_EDGES.map((entry) => [`${entry.type}/${entry.edge}`, entry]));

/** The table's entry for this edge of this node type, if Loom does not emulate it. */
export function unemulatedEdge(typeName: string, edgeName: string): UnemulatedEdge | undefined {
  return byKey.get(`${typeName}/${edgeName}`);
}
