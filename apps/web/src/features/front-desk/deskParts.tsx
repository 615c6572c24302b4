import type { ReactNode } from 'react';
import { REASON_KEYS, type CheckInResult, type Purchase } from '@venue/domain';

/** The catalogue key of a reason code (`reason.<name>`, packages/domain labels.ts). */
export const reasonKey = (reason: number) => REASON_KEYS[reason] ?? 'unknown';

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
