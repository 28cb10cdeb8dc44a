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

/** A person's edges of one product, which all answer alike. */
function userEdges(product: string, answer: UnemulatedAnswer, edges: readonly string[]): UnemulatedEdge[] {
  return edges.map((edge) => ({ type: 'user', edge, product, answer }));
}

export const UNEMULATED_EDGES: readonly UnemulatedEdge[] = [
  ...userEdges('Ads', ADS, ['adaccounts', 'adaccountgroups', 'adcontracts', 'commission_splits', 'promotable_domains', 'promotable_events']),
  ...userEdges('Audience Network insights', permissionNeeded('read_audience_network_insights'), ['adnetworkanalytics']),
  ...userEdges('Insights', permissionNeeded('read_insights'), ['insights']),
  ...userEdges('Business Manager', NO_CAPABILITY, ['businesses', 'businesssettinglogs', 'brand_teams', 'domains']),
  ...userEdges('Payments', NO_CAPABILITY, ['payments', 'payment_transactions', 'payment.subscriptions']),
  ...userEdges('Messaging', MAILBOX, ['inbox', 'outbox', 'threads', 'conversations', 'updates', 'pokes']),
  ...userEdges('Notifications', permissionNeeded('manage_notifications'), ['notifications']),
  ...userEdges('Games', { kind: 'error', code: 15, message: '(#15) This method is only accessible to Games.', refusal: 'product' }, ['invitable_friends']),
  ...userEdges('Games', EMPTY, ['achievements', 'scores']),
  ...userEdges('App requests', EMPTY, ['apprequests', 'apprequestformerrecipients', 'favorite_requests', 'request_history', 'platformrequests']),
  ...userEdges('App development', EMPTY, ['applications', 'ownerapps']),
  ...userEdges('Open Graph', EMPTY, ['objects']),
  ...userEdges('Social plugins', EMPTY, ['integrated_plugin_feed']),
  ...userEdges('Messaging', EMPTY, ['screennames']),
  ...userEdges('News feed filters', EMPTY, ['stream_filters']),
  ...userEdges('Page notifications', EMPTY, ['notify_me']),
  ...userEdges('Page ratings', EMPTY, ['ratings']),
  ...userEdges('Audience selector', EMPTY, ['privacy_options']),
  ...userEdges('Location stories (retired with v2.0)', EMPTY, ['locations']),
  ...userEdges('Live video', EMPTY, ['video_broadcasts']),
  ...userEdges('Groups administration', EMPTY, ['admined_groups']),
];

const byKey = new Map(UNEMULATED_EDGES.map((entry) => [`${entry.type}/${entry.edge}`, entry]));

/** The table's entry for this edge of this node type, if Loom does not emulate it. */
export function unemulatedEdge(typeName: string, edgeName: string): UnemulatedEdge | undefined {
  return byKey.get(`${typeName}/${edgeName}`);
}
