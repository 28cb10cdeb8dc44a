import { debugToken } from '../auth/debug-token.js';
import { authenticatedClient, formEncodedToken, issueForGrant } from '../auth/token-endpoint.js';
import { appViewer } from '../auth/viewer.js';
import { PlainText } from '../dispatch/graph-response.js';
import type { DispatchSettings } from '../dispatch/settings.js';
import type { SpecialPath } from '../dispatch/special-paths.js';
import { answerPermissions } from '../engine/access/permissions.js';
import { answerSearch } from '../engine/read/search.js';
import { readPublicPicture } from '../graph/public-picture.js';
import { rules } from '../schema/versions.js';
import type { CallbackRules } from '../webhooks/callback-url.js';
import { answerPageInstall, answerSubscriptions } from '../webhooks/subscriptions-api.js';

const EVERY_METHOD = ['get', 'post', 'delete'] as const;

/**
 * The handler table of dispatch: each special path, answered by a plain function of the room
 * that owns it. `settings` are read as each request is answered (the schema in force may change).
 */
export function specialPaths(settings: Omit<DispatchSettings, 'paths'>, webhooks: CallbackRules): SpecialPath[] {
  return [
    {
      // The client is the caller once its secret is proven, before any token is issued.
      path: 'oauth/access_token',
      methods: ['get', 'post'],
      service: true,
      caller: 'proven',
      prove: async (params) => appViewer(await authenticatedClient(settings.store, params)),
      answer: async (caller, version, { params }) => {
        const token = await issueForGrant(settings.store, caller.app, params, { now: settings.clock.now(), tokenLifetime: settings.tokenLifetime });
        return rules.has('token-endpoint-json', version) ? token : new PlainText(formEncodedToken(token));
      },
    },
    {
      // With an app token, or a user token, of the same app as the token asked about.
      path: 'debug_token',
      methods: ['get'],
      service: true,
      caller: 'token',
      answer: (context, { params }) => debugToken(context.store, context.viewer, params.input_token, context.now, context.version),
    },
    { path: 'search', methods: ['get'], caller: 'token', answer: (context, { params }) => answerSearch(context, params) },
    // A person's answers to the viewer's app: one read, withdrawn, or all withdrawn.
    ...[':id/permissions/:item', ':id/permissions'].map(
      (path): SpecialPath => ({
        path,
        methods: path.endsWith(':item') ? EVERY_METHOD : ['delete'],
        caller: 'token',
        answer: (context, { id, method, item }) => answerPermissions(context, id, method, item),
      }),
    ),
    {
      // Pictures are public, for an id of any app.
      path: ':id/picture',
      methods: ['get'],
      caller: 'none',
      answer: ({ id, params, linkBase }) => readPublicPicture(settings.readStore, settings.schema, settings.publicUrl ?? linkBase, id, params),
    },
    // Webhooks: an app's subscriptions, and the pages that send it their changes.
    {
      path: ':id/subscriptions',
      methods: EVERY_METHOD,
      caller: 'token',
      answer: (context, { id, method, params }) => answerSubscriptions(context, webhooks, id, method, params),
    },
    { path: ':id/subscribed_apps', methods: EVERY_METHOD, caller: 'token', answer: (context, { id, method }) => answerPageInstall(context, id, method) },
  ];
}
