import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

/** The events the Facebook SDKs log by these names (their AppEventName constants). */
const STANDARD_EVENTS = [
  'fb_mobile_achievement_unlocked', 'fb_mobile_activate_app', 'fb_mobile_add_payment_info', 'fb_mobile_add_to_cart',
  'fb_mobile_add_to_wishlist', 'fb_mobile_complete_registration', 'fb_mobile_content_view', 'fb_mobile_initiated_checkout',
  'fb_mobile_level_achieved', 'fb_mobile_purchase', 'fb_mobile_rate', 'fb_mobile_search', 'fb_mobile_spent_credits',
  'fb_mobile_tutorial_completion',
];

describe('GET /<app>/app_event_types', () => {
  let fixture: Fixture;
  let server: TestServer;
  let appToken: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
  });

  it('lists the standard app events with their descriptions and parameters, to the app itself', async () => {
    const reply = await server.get(`/v2.4/${fixture.app.id}/app_event_types`, { access_token: appToken });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(Object.keys(reply.body), ['data']);
    const events = reply.body.data as { event_name: string; display_name: string; description: string; parameters: { parameter_name: string }[] }[];
    assert.deepEqual(events.map((event) => event.event_name), STANDARD_EVENTS);
    for (const event of events) {
      assert.deepEqual(Object.keys(event), ['event_name', 'display_name', 'description', 'parameters'], event.event_name);
      assert.ok(event.display_name.length > 0 && event.description.length > 0, event.event_name);
      for (const parameter of event.parameters) assert.deepEqual(Object.keys(parameter), ['parameter_name', 'display_name', 'description']);
    }
    const purchase = events.find((event) => event.event_name === 'fb_mobile_purchase')!;
    assert.deepEqual(purchase.parameters.map((parameter) => parameter.parameter_name), ['fb_num_items', 'fb_content_type', 'fb_content_id', 'fb_currency']);
    assert.deepEqual(events.find((event) => event.event_name === 'fb_mobile_activate_app')!.parameters, []);
    // `app` names the token's own app, as it does for every app path.
    assert.deepEqual((await server.get('/v2.4/app/app_event_types', { access_token: appToken })).body, reply.body);
  });

  it('answers fields= (nested too) and the edge inside the app node', async () => {
    const picked = await server.get(`/v2.4/${fixture.app.id}/app_event_types`, { access_token: appToken, fields: 'event_name,parameters{parameter_name}' });
    assert.equal(picked.status, 200, picked.text);
    assert.deepEqual(picked.body.data.find((event: { event_name: string }) => event.event_name === 'fb_mobile_level_achieved'), {
      event_name: 'fb_mobile_level_achieved',
      parameters: [{ parameter_name: 'fb_level' }],
    });
    const unknown = await server.get(`/v2.4/${fixture.app.id}/app_event_types`, { access_token: appToken, fields: 'id' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.message, '(#100) Tried accessing nonexisting field (id) on node type (ApplicationAppEventTypes)');
    const nested = await server.get(`/v2.4/${fixture.app.id}`, { access_token: appToken, fields: 'name,app_event_types{event_name}' });
    assert.equal(nested.status, 200, nested.text);
    assert.equal(nested.body.app_event_types.data.length, STANDARD_EVENTS.length);
    assert.deepEqual(nested.body.app_event_types.data[0], { event_name: STANDARD_EVENTS[0] });
    const listed = await server.get(`/v2.4/${fixture.app.id}`, { access_token: appToken, metadata: '1', fields: 'id' });
    assert.ok('app_event_types' in listed.body.metadata.connections);
  });

  it("refuses a person's token with (#15) and another app's token with (#200)", async () => {
    const byPerson = await server.get(`/v2.4/${fixture.app.id}/app_event_types`, { access_token: fixture.aliceToken });
    assert.equal(byPerson.status, 400, byPerson.text);
    assert.equal(byPerson.body.error.code, 15);
    const other = await fixture.store.createApp({ name: 'Other', secret: 'other-secret', idKey: 'ef'.repeat(16), createdTime: fixture.now });
    const byOther = await server.get(`/v2.4/${fixture.app.id}/app_event_types`, { access_token: `${other.id}|other-secret` });
    assert.equal(byOther.body.error.code, 200, byOther.text);
    // Inside the app node, a person's token leaves the edge out rather than failing the read.
    const nested = await server.get(`/v2.4/${fixture.app.id}`, { access_token: fixture.aliceToken, fields: 'name,app_event_types' });
    assert.deepEqual(Object.keys(nested.body), ['name', 'id']);
  });
});
