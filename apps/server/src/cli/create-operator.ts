import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { and, isNull, sql } from 'drizzle-orm';
import { allPermissions, COUNTRIES, UserLevel, UserRole, type Country } from '@venue/domain';
import { loadConfig } from '../config.js';
import { openDatabase, type Db } from '../db/index.js';
import { users } from '../db/schema.js';
import { AppError } from '../lib/errors.js';
import { hashPassword } from '../lib/password.js';
import { createClubWithAdmin, generatePassword } from '../modules/operator/clubs.service.js';

/**
 * `npm run create-operator`: first accounts of a production installation,
 * where no demo club and no default account exist (DESIGN §4, §6).
 *
 *   npm run create-operator                      → the operator (SuperUser) "operator"
 *   npm run create-operator -- --username ops    → the operator "ops"
 *   npm run create-operator -- --club 1234 --club-name "Mikveh Beit El" [--username manager]
 *                                                → club 1234 and its first admin ("admin")
 *
 * Passwords are generated and printed once; only their scrypt hashes are stored.
 * The database is the server's (DATABASE_URL, else PGlite in DATA_DIR).
 */

/**
 * Creates the service operator's account: level SuperUser (1), no club,
 * admin with every flag. Refuses (409 USER_NAME_EXISTS) when an operator-level
 * account (club null) of that name exists, case-insensitively.
 * Returns the user id, the username and the generated password.
 */
export async function createOperator(
  db: Db,
  opts: { username?: string } = {},
): Promise<{ id: number; username: string; password: string }> {
  const username = (opts.username ?? 'operator').trim();
  if (!username) throw new AppError('VALIDATION_ERROR', 'username is required');
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(isNull(users.clubId), sql`lower(${users.username}) = lower(${username})`))
    .limit(1);
  if (taken) throw new AppError('USER_NAME_EXISTS', `User name already exists: ${username}`);
  const password = generatePassword();
  const [u] = await db
    .insert(users)
    .values({
      clubId: null,
      username,
      passwordHash: await hashPassword(password),
      name: 'Operator',
      language: 'he',
      role: UserRole.MANAGER,
      level: UserLevel.SuperUser,
      isAdmin: true,
      permissions: allPermissions(true),
    })
    .returning({ id: users.id });
  return { id: u.id, username, password };
}

// The club and its admin are created by the operator's service (also behind POST /api/Operator/Club).
export { createClubWithAdmin, generatePassword };

/** Runs the command line; returns the process exit code. */
export async function main(argv: string[], print: (s: string) => void = console.log): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        username: { type: 'string' },
        club: { type: 'string' },
        'club-name': { type: 'string' },
        country: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    print(String((err as Error).message));
    return 2;
  }
  if (values.help) {
    print(
      'usage: create-operator [--username NAME]\n       create-operator --club EXTERNAL_CLUB_ID --club-name NAME [--username ADMIN] [--country Israel|USA|UK|Hungary|Belgium]',
    );
    return 0;
  }
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (values.club !== undefined) {
      if (!/^\d+$/.test(values.club) || !values['club-name']) {
        print('--club needs a number and --club-name a name');
        return 2;
      }
      if (values.country !== undefined && !(COUNTRIES as readonly string[]).includes(values.country)) {
        print(`--country must be one of ${COUNTRIES.join(', ')}`);
        return 2;
      }
      const r = await createClubWithAdmin(database.db, {
        externalClubId: Number(values.club),
        name: values['club-name'],
        username: values.username,
        country: values.country as Country | undefined,
      });
      print(`Club ${r.externalClubId} created. First admin (shown once):`);
      print(`  club: ${r.externalClubId}  username: ${r.username}  password: ${r.password}`);
    } else {
      const r = await createOperator(database.db, { username: values.username });
      print('Operator account created (shown once):');
      print(`  username: ${r.username}  password: ${r.password}`);
    }
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      print(`${err.code}: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

const invoked = process.argv[1] ? pathToFileURL(path.resolve(process.argv[1])).href : '';
if (import.meta.url === invoked) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
