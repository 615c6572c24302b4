import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtInCity,
  cityLocation,
  EntranceState,
  halachicMinutes,
  halachicTimeAt,
  HalachicTime,
  hhmm,
  JERUSALEM,
  parseIsoDate,
  type Identification,
} from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { TerminalClient } from '../../../../terminal/src/client.js';

/**
 * Each club's own location at the gate (issue 14 §1; docs/calendar.md): two
 * clubs on one server, Jerusalem and New York, each with a group whose row
 * opens at nightfall (tzeit 8.5°) until 23:00 local, decide differently at the
 * same instant; a change of location takes effect at the next decision.
 * Runs on PGlite and on PostgreSQL (TEST_DB=postgres).
 */

let ctx: TestContext;
let base: string;
const SECRET = 'gate-location-secret';
const open: TerminalClient[] = [];
let seq = 1;

const NEW_YORK = cityLocation(builtInCity('New York')!);
const DAY = '2026-09-06';

async function nightfallGate(clubId: number) {
  const group = await factory.makeGroupWithSchedule(
    ctx,
    clubId,
    { name: `Night ${seq}`, entranceState: EntranceState.Closed },
    [
      {
        fromTime: null,
        fromHalachic: HalachicTime.Nightfall,
        toTime: hhmm('23:00'),
        entranceState: EntranceState.Opened,
        price: 0,
      },
    ],
  );
  const serial = `GL-${clubId}-${seq++}`;
  await factory.makeTerminal(ctx, clubId, { serial, secret: SECRET });
  const tc = new TerminalClient({ url: base, serial, secret: SECRET, timeoutMs: 5000, heartbeat: false });
  open.push(tc);
  await tc.connect();
  const member = async (): Promise<Identification> => {
    const c = await factory.makeClient(ctx, clubId, { groupId: group.id, ...factory.SUBSCRIBED });
    return { kind: 'card', value: c.cardSerial! };
  };
  return { group, tc, member };
}

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  for (const tc of open) await tc.close().catch(() => undefined);
  await ctx?.close();
});

describe('the gate follows each club’s location', () => {
  it('Jerusalem and New York decide differently at the same instant; a change applies at once', async () => {
    const jerusalem = await signedInAdmin(ctx);
    const newYork = await signedInAdmin(ctx);
    const j = await nightfallGate(jerusalem.club.id);
    const n = await nightfallGate(newYork.club.id);

    const jTzeit = halachicTimeAt(HalachicTime.Nightfall, parseIsoDate(DAY), JERUSALEM)!;
    const nTzeit = halachicTimeAt(HalachicTime.Nightfall, parseIsoDate(DAY), NEW_YORK)!;
    // Ten minutes after Jerusalem's tzeit: about 20:00 there, about 13:00 in New York.
    const t1 = new Date(jTzeit.getTime() + 10 * 60_000);
    // Ten minutes after New York's tzeit: past midnight in Jerusalem, after 23:00 closes its row.
    const t2 = new Date(nTzeit.getTime() + 10 * 60_000);

    // Both clubs are still in Jerusalem (the default): both open at t1.
    expect((await n.tc.present(await n.member(), { at: t1 })).status).toBe(1);

    const set = await newYork.api.patch(`/api/Club/${newYork.club.id}`, { location: { city: 'New York' } });
    expect(set.statusCode).toBe(200);

    const at1 = [
      (await j.tc.present(await j.member(), { at: t1 })).status,
      (await n.tc.present(await n.member(), { at: t1 })).status,
    ];
    const at2 = [
      (await j.tc.present(await j.member(), { at: t2 })).status,
      (await n.tc.present(await n.member(), { at: t2 })).status,
    ];
    // 1 entry approved, 4 closed to the client's group (seed 000 §4).
    expect(at1).toEqual([1, 4]);
    expect(at2).toEqual([4, 1]);

    // The week preview of the New York group shows New York's nightfall.
    const preview = (await newYork.api.get(`/api/Group/${n.group.id}/WeekPreview?from=${DAY}&lang=en`)).json();
    expect(preview.location).toBe('New York');
    expect(preview.days[0].nightfall).toBe(halachicMinutes(HalachicTime.Nightfall, parseIsoDate(DAY), NEW_YORK));
    expect(preview.days[0].windows[0]).toMatchObject({ from: preview.days[0].nightfall, to: hhmm('23:00') });
  });
});
