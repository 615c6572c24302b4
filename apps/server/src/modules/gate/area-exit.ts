import type { Identification } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clients } from '../../db/schema.js';
import { scoped } from '../../lib/scoped.js';
import { identificationMatch } from './entrance.service.js';
import { recordAreaExit } from './occupancy.js';

/**
 * An exit read at a terminal (`exit` message: an exit reader or a quick exit; docs/gate-safety.md
 * "Occupancy"): the client the identification names leaves the area they are in. Returns the area
 * left, or null (nobody matched, or not inside any area). Whatever the quick exit's own outcome.
 */
export async function exitByIdentification(
  db: Db,
  clubId: number,
  identification: Identification,
  at: Date,
): Promise<number | null> {
  const match = await identificationMatch(db, clubId, identification);
  if (!match) return null;
  const [c] = await db.select({ id: clients.id }).from(clients).where(scoped(db, clubId).live(clients, match)).limit(1);
  return c ? recordAreaExit(db, clubId, c.id, at, 'exit') : null;
}
