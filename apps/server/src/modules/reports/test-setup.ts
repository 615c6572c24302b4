import { localInstant } from '../../../test/time.js';
import * as factory from '../../../test/factories.js';

/**
 * Setup shared by the report tests (their rows through test/factories.ts).
 * Only helpers used by more than one report test live here.
 */

/** One request to load licenses of a report's fixed data set: `price` per license in agorot, `at` when it was sent. */
export interface LicenseRequestRow {
  qty: number;
  price: number;
  reference: string;
  status: number;
  at: Date;
  /** The bank transfer's date, 'YYYY-MM-DD'; default 2025-03-01. */
  transfer?: string;
  /** The bank's code; default '12' (Hapoalim). */
  bank?: string;
  /** When the operator approved it (loaded licenses are by this day). */
  decided?: Date;
}

/**
 * Writes the requests of `rows` for a club, sent by `userId`, in order, as
 * the console's upload writes them (a small PDF named ref.pdf, a placeholder
 * encrypted bank field); amount = qty × price agorot.
 */
export async function makeLicenseRequests(
  ctx: factory.FactoryContext,
  clubId: number,
  userId: number,
  rows: LicenseRequestRow[],
) {
  const out = [];
  for (const r of rows)
    out.push(
      await factory.makeLicenseRequest(ctx, clubId, {
        quantity: r.qty,
        price: r.price,
        transferDate: r.transfer ?? '2025-03-01',
        reference: r.reference,
        bankCode: r.bank ?? '12',
        bankEnc: 'x',
        fileName: 'ref.pdf',
        fileType: 'application/pdf',
        file: Buffer.from('%PDF-1.4'),
        status: r.status,
        userId,
        createdAt: r.at,
      }),
    );
  return out;
}

/** The two clients most report tests sell to: number 1 Sara Zilber and number 2 Avi Cohen. */
export async function makeSaraAndAvi(ctx: factory.FactoryContext, clubId: number) {
  const [c1, c2] = await factory.makeClients(ctx, clubId, [
    { number: 1, firstName: 'Sara', lastName: 'Zilber' },
    { number: 2, firstName: 'Avi', lastName: 'Cohen' },
  ]);
  return { c1, c2 };
}

/** The time zone of the report tests' clubs. */
export const TZ = 'Asia/Jerusalem';

/** The filter of most report tests: March 2025, one page of 100 rows. */
export const MARCH = { period: 'range', from: '2025-03-01', to: '2025-03-31', pageSize: 100 };

/** The instant of `h`:00 on day `d` of month `mo` of 2025 in {@link TZ}. */
export const at = (mo: number, d: number, h = 12) => localInstant(TZ, 2025, mo, d, h);

/** The sum of `xs`. */
export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
