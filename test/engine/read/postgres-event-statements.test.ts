import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useWireCountingServer } from '../../helpers/counted-server.js';
import { addMediaGraph } from '../../helpers/media-graph.js';
import { testStoreKind } from '../../helpers/test-store.js';

// Round trips counted on the wire between a real server and PostgreSQL.
describe('round trips to PostgreSQL across events', { skip: testStoreKind !== 'postgres' && 'runs in the PostgreSQL half' }, () => {
  const { statementsFor } = useWireCountingServer(addMediaGraph);

  it('sends as many statements for events{attending, feed{likes}} with three guests and two posts as with one of each, a few round trips deep', async () => {
    for (let i = 0; i < 3; i++) await statementsFor('id');
    const query = 'events{name,attending.limit(3){name},feed.limit(2){message,likes.summary(true)}}';
    const all = await statementsFor(query);
    const [party] = all.body.events.data;
    assert.equal(party.attending.data.length, 3);
    assert.equal(party.feed.data.length, 2);
    assert.equal(party.feed.data[0].likes.summary.total_count, 2);
    const small = await statementsFor(query.replace('limit(3)', 'limit(1)').replace('limit(2)', 'limit(1)'));
    assert.equal(small.body.events.data[0].feed.data.length, 1);
    // People already known to use the app are not asked about again, so the smaller query may
    // need one more read of grants than the larger; more items never cost more statements.
    assert.ok(all.statements <= small.statements, `statements do not grow with the items: ${all.statements} > ${small.statements}`);
    // Shared state, the node, its events, their guests and walls, the walls' authors' use of the
    // app, their likes with counts: the guests' and walls' statements may overlap or follow, the
    // more so the busier the machine. Three levels wait on one another whatever the timing: the
    // events, their guests and walls, the posts' likes.
    assert.ok(all.roundTrips >= 3 && all.roundTrips <= 7, `round trips: ${all.roundTrips}`);
  });
});
