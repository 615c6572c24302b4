import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * A throw-away PostgreSQL primary and its streaming replica, as two Debian
 * clusters on spare ports (`pg_createcluster`, `pg_basebackup -R`), for the
 * read-replica test (db/replica.test.ts). The machine's own clusters are not
 * touched: a replica of the shared 5432 cluster would need a replication
 * entry in its pg_hba.conf; a cluster of our own needs nothing of it.
 *
 * Needs Debian's postgresql-common (`pg_createcluster`) and root (clusters
 * are created for the `postgres` user); {@link replicaClustersUnavailable}
 * says why not when they cannot be made.
 */
export interface ReplicaClusters {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops and removes both clusters. */
  drop(): void;
}

const PREFIX = 'vtest_repl_';

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(path.join(dir, cmd)));
}

/** The newest PostgreSQL major version installed the Debian way, or undefined. */
function debianVersion(): string | undefined {
  if (!existsSync('/usr/lib/postgresql')) return undefined;
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((v) => /^\d+$/.test(v) && existsSync(`/usr/lib/postgresql/${v}/bin/pg_basebackup`))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0];
}

/** Why the clusters cannot be made here (undefined when they can). */
export function replicaClustersUnavailable(): string | undefined {
  if (!onPath('pg_createcluster') || !onPath('pg_dropcluster') || !onPath('pg_ctlcluster'))
    return "pg_createcluster is not installed (Debian's postgresql-common)";
  if (!debianVersion()) return 'no PostgreSQL server with pg_basebackup under /usr/lib/postgresql';
  if (process.getuid?.() !== 0) return 'creating clusters needs root (they belong to the postgres user)';
  if (!onPath('runuser')) return 'runuser is not installed (util-linux)';
  return undefined;
}

/** A TCP port nobody listens on now. */
async function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Removes clusters of this test left by a run that died (their process is gone). */
function dropStale(version: string): void {
  const dir = `/etc/postgresql/${version}`;
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const m = new RegExp(`^${PREFIX}[pr]_(\\d+)$`).exec(name);
    if (m && !alive(Number(m[1]))) dropCluster(version, name);
  }
}

function dropCluster(version: string, name: string): void {
  try {
    run('pg_dropcluster', ['--stop', version, name]);
  } catch {
    // Already gone, or half made: remove what is left.
    rmSync(`/etc/postgresql/${version}/${name}`, { recursive: true, force: true });
    rmSync(`/var/lib/postgresql/${version}/${name}`, { recursive: true, force: true });
  }
}

const HBA = [
  'local all all trust',
  'local replication all trust',
  'host all all 127.0.0.1/32 trust',
  'host replication all 127.0.0.1/32 trust',
  '',
].join('\n');

/** Test-only settings: small, local, not durable (the clusters live for one test). */
const CONF = [
  "listen_addresses = '127.0.0.1'",
  'shared_buffers = 16MB',
  'max_connections = 40',
  'fsync = off',
  'full_page_writes = off',
  'hot_standby = on',
  'hot_standby_feedback = on',
  '',
].join('\n');

/**
 * Creates a primary cluster and a streaming replica of it (pg_basebackup
 * -R: standby.signal and primary_conninfo), starts both, and waits until
 * the replica is streaming. Throws (after removing what it made) on failure.
 */
export async function createReplicaClusters(): Promise<ReplicaClusters> {
  const version = debianVersion()!;
  dropStale(version);
  const primary = `${PREFIX}p_${process.pid}`;
  const replica = `${PREFIX}r_${process.pid}`;
  const [pPort, rPort] = [await sparePort(), await sparePort()];
  const drop = () => {
    dropCluster(version, replica);
    dropCluster(version, primary);
  };
  try {
    for (const [name, port] of [
      [primary, pPort],
      [replica, rPort],
    ] as const) {
      run('pg_createcluster', [version, name, '-p', String(port)]);
      writeFileSync(`/etc/postgresql/${version}/${name}/pg_hba.conf`, HBA);
      writeFileSync(`/etc/postgresql/${version}/${name}/conf.d/venue-test.conf`, CONF);
    }
    run('pg_ctlcluster', [version, primary, 'start']);
    // The replica's data directory (kept: it is the postgres user's) becomes a base backup of the primary's.
    const data = `/var/lib/postgresql/${version}/${replica}`;
    for (const f of readdirSync(data)) rmSync(path.join(data, f), { recursive: true, force: true });
    run('runuser', [
      '-u',
      'postgres',
      '--',
      `/usr/lib/postgresql/${version}/bin/pg_basebackup`,
      '-h',
      '127.0.0.1',
      '-p',
      String(pPort),
      '-U',
      'postgres',
      '-D',
      data,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    run('pg_ctlcluster', [version, replica, 'start']);
    const primaryUrl = `postgres://postgres@127.0.0.1:${pPort}/postgres`;
    const replicaUrl = `postgres://postgres@127.0.0.1:${rPort}/postgres`;
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: primaryUrl });
    await c.connect();
    try {
      for (let i = 0; ; i++) {
        const r = await c.query(`select count(*)::int as n from pg_stat_replication where state = 'streaming'`);
        if (r.rows[0].n > 0) break;
        if (i > 300) throw new Error('the replica did not start streaming within 30 s');
        await new Promise((res) => setTimeout(res, 100));
      }
    } finally {
      await c.end();
    }
    return { primaryUrl, replicaUrl, drop };
  } catch (err) {
    drop();
    throw err;
  }
}
