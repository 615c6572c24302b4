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

/**
 * The built-in sandbox clearing provider (DESIGN §7). Behaves like a real
 * provider towards the product: tokens, idempotent charges and refunds,
 * declines, timeouts and lost answers, and a status query by idempotency key.
 * Its books are kept in memory (a stand-in for the provider's side).
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

interface Book {
  status: 'approved' | 'declined' | 'refunded';
  amount: number;
  providerRef: string;
  reason?: string;
  /** Refunded so far of an approved charge (partial refunds). */
  refunded?: number;
}

export class SandboxProvider implements ClearingProvider {
  readonly name = 'sandbox';
  /** Idempotency key → what happened (the provider's books). */
  private readonly books = new Map<string, Book>();
  private readonly refs = new Map<string, Book>();
  /** Money actually moved per token (tests read it to prove "charged once"). */
  readonly captured = new Map<string, number>();

  constructor(private readonly opts: { baseUrl?: string; latencyMs?: number } = {}) {}

  async tokenize(card: CardDetails): Promise<TokenizeResult> {
    await this.delay();
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
    await this.delay();
    const seen = this.books.get(req.idempotencyKey);
    if (seen) return this.answer(seen);
    const m = /^sbx_(ok|decline|nsf|timeout|lost)_\d{4}_[\w-]+$/.exec(req.token);
    if (!m) return { status: 'declined', reason: 'invalid_token' };
    const behaviour = m[1] as Behaviour;
    if (behaviour === 'timeout') throw new ClearingUncertainError('sandbox: request timed out');
    if (behaviour === 'decline' || behaviour === 'nsf') {
      const book: Book = {
        status: 'declined',
        amount: req.amount,
        providerRef: '',
        reason: behaviour === 'nsf' ? 'insufficient_funds' : 'declined',
      };
      this.books.set(req.idempotencyKey, book);
      return this.answer(book);
    }
    const book: Book = {
      status: 'approved',
      amount: req.amount,
      providerRef: `sbx_ch_${randomBytes(8).toString('hex')}`,
    };
    this.books.set(req.idempotencyKey, book);
    this.refs.set(book.providerRef, book);
    this.captured.set(req.token, (this.captured.get(req.token) ?? 0) + req.amount);
    if (behaviour === 'lost') throw new ClearingUncertainError('sandbox: answer lost');
    return this.answer(book);
  }

  async refund(req: { providerRef: string; amount: number; idempotencyKey: string }): Promise<ChargeResult> {
    await this.delay();
    const seen = this.books.get(req.idempotencyKey);
    if (seen) return { status: 'approved', providerRef: seen.providerRef };
    const charge = this.refs.get(req.providerRef);
    // Partial refunds add up until the whole charge is back (then the charge is 'refunded').
    const refunded = charge?.refunded ?? 0;
    if (!charge || charge.status !== 'approved' || req.amount <= 0 || refunded + req.amount > charge.amount) {
      return { status: 'declined', reason: 'refund_not_possible' };
    }
    charge.refunded = refunded + req.amount;
    if (charge.refunded >= charge.amount) charge.status = 'refunded';
    const book: Book = {
      status: 'approved',
      amount: req.amount,
      providerRef: `sbx_rf_${randomBytes(8).toString('hex')}`,
    };
    this.books.set(req.idempotencyKey, book);
    return { status: 'approved', providerRef: book.providerRef };
  }

  async queryStatus(idempotencyKey: string): Promise<StatusResult> {
    await this.delay();
    const b = this.books.get(idempotencyKey);
    if (!b) return { status: 'not_found' };
    if (b.status === 'declined') return { status: 'declined', reason: b.reason ?? 'declined' };
    if (b.status === 'refunded') return { status: 'refunded', providerRef: b.providerRef };
    return { status: 'approved', providerRef: b.providerRef, amount: b.amount };
  }

  paymentPageUrl(orderCode: string): string {
    return `${this.opts.baseUrl ?? ''}/sandbox/pay/${encodeURIComponent(orderCode)}`;
  }

  private answer(b: Book): ChargeResult {
    return b.status === 'declined'
      ? { status: 'declined', reason: b.reason ?? 'declined' }
      : { status: 'approved', providerRef: b.providerRef };
  }

  private async delay(): Promise<void> {
    if (this.opts.latencyMs) await new Promise((r) => setTimeout(r, this.opts.latencyMs));
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
