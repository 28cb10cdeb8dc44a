import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { addMediaGraph, type MediaGraph } from '../helpers/media-graph.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

describe('events over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let graph: MediaGraph;
  let token: string;
  const served = useFixtureServer();
  before(async () => {
    ({ fixture, server } = served);
    graph = await addMediaGraph(fixture);
    token = fixture.aliceToken;
  });

  const names = async (params: Record<string, string>, accessToken = token) => {
    const reply = await server.get('/v2.4/me/events', { access_token: accessToken, fields: 'name', ...params });
    assert.equal(reply.status, 200, reply.text);
    return reply.body.data.map((event: { name: string }) => event.name);
  };

  it("lists a person's events by their answer, attending unless a type is given", async () => {
    assert.deepEqual(await names({}), ['Loom party']);
    assert.deepEqual(await names({ type: 'attending' }), ['Loom party']);
    assert.deepEqual(await names({ type: 'created' }), ['Loom party']);
    assert.deepEqual(await names({ type: 'maybe' }), ['Concert']);
    assert.deepEqual(await names({ type: 'declined' }), ['Lecture on dyes']);
    assert.deepEqual(await names({ type: 'not_replied' }), ['Picnic']);
    const nested = await server.get('/v2.4/me', { access_token: token, fields: 'events.type(maybe){name}' });
    assert.deepEqual(nested.body.events.data, [{ name: 'Concert', id: String(graph.events.concert) }]);
    const bad = await server.get('/v2.4/me/events', { access_token: token, type: 'going' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 100);
    assert.match(bad.body.error.message, /type must be one of the following values: attending, created, declined, maybe, not_replied/);
  });

  it("says how the person answered each of their events, by default and when asked", async () => {
    const byDefault = await server.get('/v2.4/me/events', { access_token: token, type: 'maybe' });
    assert.deepEqual(byDefault.body.data, [{ name: 'Concert', start_time: '2025-11-05T20:00:00+0100', timezone: 'Europe/Paris', id: String(graph.events.concert), rsvp_status: 'unsure' }]);
    const asked = await server.get('/v2.4/me', { access_token: token, fields: 'events.type(declined){name,rsvp_status},events.type(created).as(created){rsvp_status}' });
    assert.equal(asked.status, 200, asked.text);
    assert.deepEqual(asked.body.events.data, [{ name: 'Lecture on dyes', id: String(graph.events.lecture), rsvp_status: 'declined' }]);
    assert.deepEqual(asked.body.created.data, [{ id: String(graph.events.party), rsvp_status: 'attending' }], 'a host attends');
    const notAsked = await server.get('/v2.4/me/events', { access_token: token, type: 'not_replied', fields: 'name' });
    assert.deepEqual(notAsked.body.data, [{ name: 'Picnic', id: String(graph.events.picnic) }]);
    const onTheNode = await server.get(`/v2.4/${graph.events.party}`, { access_token: token, fields: 'rsvp_status' });
    assert.equal(onTheNode.status, 400, 'an event read by its id has no answer of its own');
  });

  it('names the place as location (and venue, for a page) up to v2.2 and as place from v2.3; is_date_only up to v2.3', async () => {
    const party = String(graph.events.party);
    const old = await server.get(`/v2.2/${party}`, { access_token: token });
    assert.equal(old.status, 200, old.text);
    assert.equal(old.body.location, 'Mill Hall');
    assert.equal(old.body.place, undefined);
    assert.equal(old.body.venue, undefined, 'a place that is no page has no venue');
    assert.equal(old.body.is_date_only, false);
    assert.deepEqual(Object.keys(old.body), ['id', 'description', 'end_time', 'is_date_only', 'location', 'name', 'owner', 'privacy', 'start_time', 'timezone', 'updated_time']);
    const refused = await server.get(`/v2.2/${party}`, { access_token: token, fields: 'place' });
    assert.equal(refused.status, 400, 'no place before v2.3');
    const current = await server.get(`/v2.3/${party}`, { access_token: token, fields: 'place,is_date_only' });
    assert.deepEqual(current.body, { place: { name: 'Mill Hall', location: { city: 'Lyon', country: 'France', latitude: 45.76, longitude: 4.83 } }, is_date_only: false, id: party });
    assert.equal((await server.get(`/v2.3/${party}`, { access_token: token, fields: 'location' })).status, 400, 'no location from v2.3');
    assert.equal((await server.get(`/v2.4/${party}`, { access_token: token, fields: 'is_date_only' })).status, 400, 'not in the v2.4 dialect');
    const listed = await server.get('/v2.2/me/events', { access_token: token });
    assert.deepEqual(Object.keys(listed.body.data[0]), ['name', 'start_time', 'end_time', 'timezone', 'location', 'id', 'rsvp_status']);
  });

  it('event-privacy-default: names its privacy without fields up to v2.2, only when asked from v2.3', async () => {
    const party = String(graph.events.party);
    assert.equal((await server.get(`/v2.2/${party}`, { access_token: token })).body.privacy, 'OPEN');
    const current = await server.get(`/v2.3/${party}`, { access_token: token });
    assert.equal(current.status, 200, current.text);
    assert.deepEqual(Object.keys(current.body), ['id', 'description', 'end_time', 'is_date_only', 'name', 'owner', 'place', 'start_time', 'timezone', 'updated_time']);
    assert.deepEqual((await server.get(`/v2.3/${party}`, { access_token: token, fields: 'privacy' })).body, { privacy: 'OPEN', id: party });
  });

  it("says each guest's answer in the guest lists up to v2.3, and not from v2.4", async () => {
    const party = String(graph.events.party);
    const attending = await server.get(`/v2.3/${party}/maybe`, { access_token: token });
    assert.equal(attending.status, 200, attending.text);
    assert.ok(attending.body.data.length > 0);
    for (const guest of attending.body.data) assert.equal(guest.rsvp_status, 'unsure');
    const current = await server.get(`/v2.4/${party}/maybe`, { access_token: token });
    for (const guest of current.body.data) assert.equal(guest.rsvp_status, undefined);
    assert.equal((await server.get(`/v2.4/${party}/maybe`, { access_token: token, fields: 'rsvp_status' })).status, 400);
  });

  it('answers an empty list without user_events, and the events with it', async () => {
    const basic = await fixture.aliceWith();
    const without = await server.get('/v2.4/me/events', { access_token: basic });
    assert.equal(without.status, 200);
    assert.equal(without.text, '{"data":[]}');
    assert.deepEqual(await names({}, await fixture.aliceWith('user_events')), ['Loom party']);
  });

  it('reads the Event node in its v2.4 shape, with its counts and guest lists', async () => {
    const id = String(graph.events.party);
    const read = await server.get(`/v2.4/${id}`, {
      access_token: token,
      fields: 'name,description,start_time,end_time,timezone,place,owner,privacy,attending_count,declined_count,maybe_count,noreply_count,interested_count,is_canceled,updated_time',
    });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, {
      name: 'Loom party',
      description: 'Bring yarn.',
      start_time: '2025-11-01T19:00:00+0100',
      end_time: '2025-11-01T23:00:00+0100',
      timezone: 'Europe/Paris',
      place: { name: 'Mill Hall', location: { city: 'Lyon', country: 'France', latitude: 45.76, longitude: 4.83 } },
      owner: { name: 'Alice Arden', id: fixture.scoped(fixture.users.alice) },
      privacy: 'OPEN',
      attending_count: 7,
      declined_count: 0,
      maybe_count: 1,
      noreply_count: 0,
      interested_count: 0,
      is_canceled: false,
      updated_time: read.body.updated_time,
      id,
    });
    const guests = await server.get(`/v2.4/${id}`, { access_token: token, fields: 'attending.limit(3){name},invited.summary(true).limit(0),feed.limit(2){message}' });
    assert.equal(guests.body.attending.data.length, 3);
    assert.ok(guests.body.attending.paging.next, 'more guests lie beyond the page');
    assert.equal(guests.body.invited.summary.total_count, 8);
    assert.deepEqual(guests.body.feed.data.map((post: any) => post.message), ['See you at the party (2)', 'See you at the party (1)']);
  });

  it('takes an RSVP with rsvp_event, moving the person between the lists and the counts', async () => {
    const concert = String(graph.events.concert);
    const counts = async () =>
      (await server.get(`/v2.4/${concert}`, { access_token: token, fields: 'attending_count,maybe_count,declined_count' })).body;
    assert.deepEqual(await counts(), { attending_count: 0, maybe_count: 1, declined_count: 0, id: concert });

    const answer = await server.form(`/v2.4/${concert}/attending`, { access_token: token });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body, { success: true });
    assert.deepEqual(await counts(), { attending_count: 1, maybe_count: 0, declined_count: 0, id: concert });
    assert.deepEqual(await names({}), ['Concert', 'Loom party']);
    assert.deepEqual(await names({ type: 'maybe' }), []);
    const again = await server.form(`/v2.4/${concert}/attending`, { access_token: token });
    assert.deepEqual(again.body, { success: true });
    assert.deepEqual(await counts(), { attending_count: 1, maybe_count: 0, declined_count: 0, id: concert }, 'answering twice counts once');

    assert.deepEqual((await server.form(`/v2.4/${concert}/declined`, { access_token: token })).body, { success: true });
    assert.deepEqual(await counts(), { attending_count: 0, maybe_count: 0, declined_count: 1, id: concert });
    assert.deepEqual(await names({ type: 'declined' }), ['Concert', 'Lecture on dyes']);
    const v20 = await server.form(`/v2.0/${concert}/maybe`, { access_token: token });
    assert.equal(v20.text, 'true', 'v2.0 answers a bare true');
    assert.deepEqual(await counts(), { attending_count: 0, maybe_count: 1, declined_count: 0, id: concert });

    const without = await server.form(`/v2.4/${concert}/attending`, { access_token: await fixture.aliceWith('user_events', 'publish_actions') });
    assert.equal(without.status, 403);
    assert.equal(without.body.error.message, '(#200) Requires extended permission: rsvp_event');
    assert.deepEqual(await counts(), { attending_count: 0, maybe_count: 1, declined_count: 0, id: concert }, 'nothing changed');
    const noreply = await server.form(`/v2.4/${concert}/noreply`, { access_token: token });
    assert.equal(noreply.status, 400, 'nobody answers "no reply"');
    const withdrawn = await server.form(`/v2.4/${concert}/maybe`, { access_token: token }, 'DELETE');
    assert.equal(withdrawn.status, 400, 'an answer is changed, not withdrawn');
    assert.deepEqual(await counts(), { attending_count: 0, maybe_count: 1, declined_count: 0, id: concert });
  });

  it('shows an event that is not open only to those invited', async () => {
    const bob = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'user_events']);
    const dave = await fixture.tokenFor(fixture.users.dave, ['public_profile', 'user_events']);
    const surprise = String(graph.events.surprise);
    const hidden = await server.get(`/v2.4/${surprise}`, { access_token: token, fields: 'name' });
    assert.equal(hidden.status, 400, hidden.text);
    assert.equal(hidden.body.error.code, 100);
    assert.deepEqual((await server.get(`/v2.4/${surprise}`, { access_token: bob, fields: 'name,privacy' })).body, { name: 'Surprise', privacy: 'SECRET', id: surprise });
    const refused = await server.form(`/v2.4/${surprise}/attending`, { access_token: token });
    assert.equal(refused.status, 400, 'nobody answers an invitation they cannot see');

    const barbecue = String(graph.events.barbecue);
    assert.deepEqual((await server.get(`/v2.4/${barbecue}`, { access_token: token, fields: 'name' })).body, { name: 'Barbecue', id: barbecue }, 'alice is invited');
    assert.equal((await server.get(`/v2.4/${barbecue}`, { access_token: dave, fields: 'name' })).status, 400, 'dave is not');
    const bobs = await server.get('/v2.4/me/events', { access_token: bob, fields: 'name', limit: '10' });
    assert.deepEqual(bobs.body.data.map((event: any) => event.name), ['Barbecue', 'Surprise', 'Picnic', 'Loom party']);
  });

  it('describes the Event node with metadata=1', async () => {
    const read = await server.get(`/v2.4/${graph.events.party}`, { access_token: token, metadata: '1' });
    assert.equal(read.body.metadata.type, 'event');
    assert.deepEqual(read.body.metadata.fields.map((field: any) => field.name), [
      'id', 'name', 'description', 'start_time', 'end_time', 'timezone', 'place', 'owner', 'privacy',
      'attending_count', 'declined_count', 'maybe_count', 'noreply_count', 'interested_count', 'cover', 'is_canceled', 'updated_time',
    ]);
    assert.deepEqual(Object.keys(read.body.metadata.connections), ['attending', 'maybe', 'declined', 'noreply', 'invited', 'feed', 'photos', 'picture']);
  });
});
