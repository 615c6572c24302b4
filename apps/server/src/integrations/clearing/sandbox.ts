import { randomBytes } from 'node:crypto';
import {
  cardBrand,
  ClearingUncertainError,
  luhnValid,
  type CardDetails,
  type ChargeResult,
  type ClearingProvider,
  type StatusResult,
  type TokenizeResult,
} from './provider.js';
import { MemoryBooks, type SandboxBook, type SandboxBooks } from './sandbox-books.js';

/**
 * The built-in sandbox clearing provider (DESIGN §7). Behaves like a real
 * provider towards the product: tokens, idempotent charges and refunds,
 * declines, timeouts and lost answers, and a status query by idempotency key.
 * Its books (sandbox-books.ts) are kept where a crash of the server does not
 * lose them — a journal under the data directory, or a table on PostgreSQL —
 * as a real provider keeps them on its side; in memory for tests.
 *
 * Test cards (any future expiry, any 3-digit CVV), all Luhn-valid:
 *
 * | number | behaviour |
 * |---|---|
 * | 4242 4242 4242 4242 | approved |
 * | 5555 5555 5555 4444 | approved (Mastercard) |
 * | 4000 0000 0000 0002 | declined |
 * | 4000 0000 0000 9995 | declined: insufficient funds |
 * | 4000 0000 0000 0119 | timeout: the request never reached the provider (nothing charged) |
 * | 4000 0000 0000 0259 | unknown outcome: charged, but the answer was lost |
 * | 4000 0000 0000 0069 | tokenization refused (card reported stolen) |
 *
 * Any other Luhn-valid number is approved; a number failing Luhn is refused.
 * The behaviour travels inside the token (`sbx_<behaviour>_<last four>_<random>`),
 * never the card number, so stored tokens keep working after a restart.
 */
export const SANDBOX_CARDS = {
  approve: '4242424242424242',
  approveMastercard: '5555555555554444',
  decline: '4000000000000002',
  insufficientFunds: '4000000000009995',
  timeout: '4000000000000119',
  unknownOutcome: '4000000000000259',
  tokenizeRefused: '4000000000000069',
} as const;

type Behaviour = 'ok' | 'decline' | 'nsf' | 'timeout' | 'lost';
const BEHAVIOUR: Record<string, Behaviour> = {
  [SANDBOX_CARDS.decline]: 'decline',
  [SANDBOX_CARDS.insufficientFunds]: 'nsf',
  [SANDBOX_CARDS.timeout]: 'timeout',
  [SANDBOX_CARDS.unknownOutcome]: 'lost',
};

export class SandboxProvider implements ClearingProvider {
  readonly name = 'sandbox';
  /** Idempotency key → what happened (the provider's books: in memory unless given; sandbox-books.ts). */
  private readonly books: SandboxBooks;
  /** Money actually moved per token by this process (tests read it to prove "charged once"). */
  readonly captured = new Map<string, number>();

  /**
   * @param opts.books where the books are kept (default in memory: forgotten at exit)
   * @param opts.latencyMs the provider's answer time: half before it records a charge or a refund,
   *   half after (the answer's way back, where a crash of the caller loses it)
   */
  constructor(private readonly opts: { baseUrl?: string; latencyMs?: number; books?: SandboxBooks } = {}) {
    this.books = opts.books ?? new MemoryBooks();
  }

  async tokenize(card: CardDetails): Promise<TokenizeResult> {
    await this.delay(1);
    const digits = card.number.replace(/\D/g, '');
    if (!luhnValid(digits)) return { ok: false, reason: 'invalid_card' };
    if (digits === SANDBOX_CARDS.tokenizeRefused) return { ok: false, reason: 'declined' };
    const behaviour = BEHAVIOUR[digits] ?? 'ok';
    const lastFour = digits.slice(-4);
    return {
      ok: true,
      token: `sbx_${behaviour}_${lastFour}_${randomBytes(9).toString('base64url')}`,
      lastFour,
      brand: cardBrand(digits),
      expiry: card.expiry,
    };
  }

  async chargeToken(req: {
    token: string;
    amount: number;
    currency: number;
    idempotencyKey: string;
  }): Promise<ChargeResult> {
    await this.delay(0.5);
    const seen = await this.books.byKey(req.idempotencyKey);
    if (seen) return this.answer(seen);
    const m = /^sbx_(ok|decline|nsf|timeout|lost)_\d{4}_[\w-]+$/.exec(req.token);
    if (!m) return { status: 'declined', reason: 'invalid_token' };
    const behaviour = m[1] as Behaviour;
    if (behaviour === 'timeout') throw new ClearingUncertainError('sandbox: request timed out');
    const declined = behaviour === 'decline' || behaviour === 'nsf';
    const ref = declined ? '' : `sbx_ch_${randomBytes(8).toString('hex')}`;
    const book = await this.books.recordCharge({
      key: req.idempotencyKey,
      kind: 'charge',
      status: declined ? 'declined' : 'approved',
      amount: req.amount,
      providerRef: ref,
      refunded: 0,
      ...(declined ? { reason: behaviour === 'nsf' ? 'insufficient_funds' : 'declined' } : {}),
    });
    // Money moved by this call (not by an earlier one with the same key).
    if (ref && book.providerRef === ref) this.captured.set(req.token, (this.captured.get(req.token) ?? 0) + req.amount);
    await this.delay(0.5);
    if (behaviour === 'lost') throw new ClearingUncertainError('sandbox: answer lost');
    return this.answer(book);
  }

  async refund(req: { providerRef: string; amount: number; idempotencyKey: string }): Promise<ChargeResult> {
    await this.delay(0.5);
    // Partial refunds add up until the whole charge is back (then the charge is 'refunded').
    const book = await this.books.refund(
      req.providerRef,
      req.amount,
      req.idempotencyKey,
      `sbx_rf_${randomBytes(8).toString('hex')}`,
    );
    await this.delay(0.5);
    if (!book) return { status: 'declined', reason: 'refund_not_possible' };
    return { status: 'approved', providerRef: book.providerRef };
  }

  async queryStatus(idempotencyKey: string): Promise<StatusResult> {
    await this.delay(1);
    const b = await this.books.byKey(idempotencyKey);
    if (!b) return { status: 'not_found' };
    if (b.status === 'declined') return { status: 'declined', reason: b.reason ?? 'declined' };
    if (b.status === 'refunded') return { status: 'refunded', providerRef: b.providerRef };
    return { status: 'approved', providerRef: b.providerRef, amount: b.amount };
  }

  paymentPageUrl(orderCode: string): string {
    return `${this.opts.baseUrl ?? ''}/sandbox/pay/${encodeURIComponent(orderCode)}`;
  }

  /** Closes the books (a file or a pool). */
  async close(): Promise<void> {
    await this.books.close();
  }

  private answer(b: SandboxBook): ChargeResult {
    return b.status === 'declined'
      ? { status: 'declined', reason: b.reason ?? 'declined' }
      : { status: 'approved', providerRef: b.providerRef };
  }

  /** Waits `share` of the provider's answer time. */
  private async delay(share: number): Promise<void> {
    if (this.opts.latencyMs) await new Promise((r) => setTimeout(r, this.opts.latencyMs! * share));
  }
}

/** One provider per process: the sandbox unless another is configured. */
let current: ClearingProvider = new SandboxProvider();
export function clearingProvider(): ClearingProvider {
  return current;
}
/** Replaces the provider (tests, or a real provider at start-up). */
export function setClearingProvider(p: ClearingProvider): void {
  current = p;
}
