import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntranceState, GroupsStateNow } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';

/**
 * GET /api/Group/StateNow (issue 19: the client form marks a group closed right now): each live
 * group's state by the gate's rule — its rows, linked general rows below its own, its own state
 * when no row is in force, closed when it does not allow entrance; another club's groups unseen.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

describe('GET /api/Group/StateNow', () => {
  it('answers each group open or closed now, by its schedule', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    // Rows all day every day (the factory's default): the row decides whatever the hour.
    const open = await factory.makeGroupWithSchedule(ctx, club.id, {
      name: 'Open',
      entranceState: EntranceState.Closed,
    });
    const closedRow = await factory.makeGroupWithSchedule(ctx, club.id, { name: 'Row closed' }, [
      { entranceState: EntranceState.Closed },
    ]);
    const noRows = await factory.makeGroupWithSchedule(
      ctx,
      club.id,
      { name: 'Own state closed', entranceState: 1 },
      [],
    );
    const barred = await factory.makeGroupWithSchedule(ctx, club.id, { name: 'No entrance', allowEntrance: false });
    // A general row that opens, linked to a group whose own row closes: the group's own row wins.
    const linked = await factory.makeGroupWithSchedule(ctx, club.id, { name: 'Linked' }, [
      { entranceState: EntranceState.Closed },
    ]);
    const general = await factory.makeSchedule(ctx, club.id, { groupId: null, entranceState: EntranceState.Opened });
    expect((await api.post('/api/ScheduleToGroup', { scheduleId: general.id, groupId: linked.id })).statusCode).toBe(
      200,
    );
    await factory.makeGroupWithSchedule(ctx, other.club.id, { name: 'Elsewhere' });

    const res = await api.get('/api/Group/StateNow');
    expect(res.statusCode).toBe(200);
    const body = GroupsStateNow.parse(res.json());
    const byId = new Map(body.items.map((i) => [i.groupId, i]));
    expect(body.items).toHaveLength(5);
    expect(byId.get(open.id)).toMatchObject({ open: true, entranceState: EntranceState.Opened });
    expect(byId.get(closedRow.id)).toMatchObject({ open: false, entranceState: EntranceState.Closed });
    expect(byId.get(noRows.id)).toMatchObject({ open: false, entranceState: EntranceState.Closed });
    expect(byId.get(barred.id)).toMatchObject({ open: false });
    expect(byId.get(linked.id)).toMatchObject({ open: false, entranceState: EntranceState.Closed });
  });
});
