import { z } from 'zod';

/**
 * Internal helpers of the schema files (not exported by the package):
 * patch shapes without create-time defaults, and the money fields shared by
 * purchases, balances, payment methods, debts and licenses.
 */

export type WithoutDefault<T> = T extends z.ZodDefault<infer I> ? I : T;

/**
 * The shape of a create schema with its defaults taken off, for PATCH bodies:
 * a field left out of a patch must stay as stored, not be reset to its
 * create-time default (`.partial()` alone keeps the defaults in zod 4).
 */
export function withoutDefaults<S extends z.ZodRawShape>(shape: S): { [K in keyof S]: WithoutDefault<S[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v instanceof z.ZodDefault ? v.unwrap() : v])) as {
    [K in keyof S]: WithoutDefault<S[K]>;
  };
}

/** An amount in agorot, 0 to 1,000,000 shekels. */
export const amount = z.number().int({ message: 'invalidAmount' }).min(0).max(100_000_000);
/** An amount in agorot, at least 1 agora. */
export const positiveAmount = z
  .number()
  .int({ message: 'invalidAmount' })
  .min(1, { message: 'invalidAmount' })
  .max(100_000_000);
/** Any caller-chosen key: a retry with the same key does the purchase or the charge once. */
export const idempotencyKey = z
  .string()
  .trim()
  .min(4)
  .max(100)
  .regex(/^[\w.:-]+$/);
