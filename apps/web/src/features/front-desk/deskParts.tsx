import type { ReactNode } from 'react';
import { REASON_KEYS, type CheckInResult, type Purchase } from '@venue/domain';

/** The catalogue key of a reason code (`reason.<name>`, packages/domain labels.ts). */
export const reasonKey = (reason: number) => REASON_KEYS[reason] ?? 'unknown';

/**
 * The club's own text (a gate's or a client's name) inside a translated sentence, isolated
 * (U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL ISOLATE, Unicode UAX #9): a Hebrew gate
 * name in an English sentence, or the reverse, keeps its own direction without carrying the
 * sentence's parentheses and punctuation with it.
 */
export const isolate = (text: string) => `\u2068${text}\u2069`;

/** What the last action did, shown above the member until the next search. */
export type DeskResult =
  | { kind: 'checkIn'; name: string; gate: string; r: CheckInResult }
  | { kind: 'sale'; p: Purchase; admitted: CheckInResult | null };

/** A labelled value of the glance. */
export function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="desk-fact">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}
