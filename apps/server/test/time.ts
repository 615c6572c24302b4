import { localParts } from '@venue/domain';

/**
 * The instant of a wall-clock time in an IANA zone, computed with Intl only
 * (independently of PostgreSQL's AT TIME ZONE, which the server uses), so
 * tests can check the server's conversion against it.
 */
export function localInstant(tz: string, y: number, mo: number, d: number, h = 0, mi = 0, s = 0): Date {
  const target = Date.UTC(y, mo - 1, d, h, mi, s);
  let guess = target;
  for (let i = 0; i < 3; i++) {
    const p = localParts(new Date(guess), tz);
    const seen = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    if (seen === target) break;
    guess -= seen - target;
  }
  return new Date(guess);
}
