import { z } from 'zod';

/**
 * Every validation message is a key of the console's `validation.*`
 * catalogue, never the validation library's English (STYLE point 8;
 * docs/ARCHITECTURE.md "A validation rule"; issue 34 items 6 and 13). A
 * schema names its own key (`{ message: 'latitudeRange' }`); what it leaves
 * unnamed gets the key of the kind of fault here, set once for every parse
 * in the server, the console and the simulator (zod's global `customError`,
 * consulted only where a schema gave no message):
 *
 * | fault | key |
 * |---|---|
 * | a required field missing (`undefined`), a union's discriminator too | `required` |
 * | an empty required text or list (`min(1)`) | `required` |
 * | a number expected, something else given | `notANumber` |
 * | another type expected | `invalid` |
 * | a text too long / short | `tooLong` / `tooShort` |
 * | a number or list out of its bounds | `outOfRange` |
 * | an e-mail, a date or another format | `invalidEmail`, `invalidDate`, `invalid` |
 * | a key the object does not know (strict objects) | `unknownField` |
 * | a value not among the allowed ones, a union, anything else | `invalid` |
 */
export function issueKey(iss: z.core.$ZodRawIssue): string {
  if (iss.input === undefined && iss.code !== 'custom') return 'required';
  switch (iss.code) {
    case 'invalid_type':
      return iss.expected === 'number' || iss.expected === 'int' ? 'notANumber' : 'invalid';
    case 'invalid_union': {
      // A discriminated union's discriminator left out (`action` of a bulk change): the field is missing.
      const d = (iss as { discriminator?: string }).discriminator;
      const input = iss.input as Record<string, unknown> | null;
      return d && input && typeof input === 'object' && input[d] === undefined ? 'required' : 'invalid';
    }
    case 'too_small':
      if (iss.origin === 'string' || iss.origin === 'array' || iss.origin === 'set') {
        return Number(iss.minimum) <= 1 ? 'required' : iss.origin === 'string' ? 'tooShort' : 'outOfRange';
      }
      return 'outOfRange';
    case 'too_big':
      return iss.origin === 'string' ? 'tooLong' : 'outOfRange';
    case 'invalid_format':
      if (iss.format === 'email') return 'invalidEmail';
      if (iss.format === 'date' || iss.format === 'datetime' || iss.format === 'time') return 'invalidDate';
      return 'invalid';
    case 'unrecognized_keys':
      return 'unknownField';
    default:
      return 'invalid';
  }
}

z.config({ customError: (iss) => issueKey(iss) });

/**
 * The error option of a schema that names its own key for a wrong value but
 * must still say `required` when the field is missing (a schema's own
 * message outranks the global one above): `z.number(keyOr('notANumber'))`.
 */
export function keyOr(key: string): { error: (iss: z.core.$ZodRawIssue) => string } {
  return { error: (iss) => (iss.input === undefined ? 'required' : key) };
}
