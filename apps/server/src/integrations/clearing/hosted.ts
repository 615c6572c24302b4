import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ClearingProvider } from './provider.js';

/**
 * The clearing provider's hosted payment page (docs/members.md "The
 * hosted-page provider shape"): the member's browser is sent to the
 * provider's own page, the card is typed there and never reaches our server,
 * and the provider tells the server the outcome in a signed server-to-server
 * callback, then sends the browser back to `returnUrl`. The callback carries a
 * card token (the provider's page tokenizes the card); the server then charges
 * that token through the one purchase path (modules/purchases createPurchase),
 * with the same idempotency, ledger and tax document as the console.
 *
 * A real Israeli provider's adapter fills the same shape: create the page from
 * the request (Cardcom's "LowProfile" page or Tranzila's hosted iframe, in their
 * token-creating mode), and turn the provider's notification into a
 * {@link HostedCallback} after checking it the provider's way (its signature,
 * or a query back to the provider by the page's id) — never trusting the
 * browser's redirect alone.
 */

/** What the server asks the provider's page for: one payment of `amount` agorot. */
export interface HostedPaymentRequest {
  /** Our reference (the checkout's code): comes back in the callback. */
  reference: string;
  amount: number;
  /** ISO 4217 numeric (376 shekel). */
  currency: number;
  /** Shown on the page (the club and what is paid for). */
  description: string;
  language: 'he' | 'en';
  /** Where the browser returns after the page (ours). */
  returnUrl: string;
  /** Where the provider posts the outcome, server to server (ours). */
  callbackUrl: string;
}

/** The outcome the provider's callback tells, once its signature is checked. */
export interface HostedCallback {
  reference: string;
  status: 'approved' | 'declined' | 'cancelled';
  /** The card's token (approved only); the number never. */
  token: string;
  lastFour: string;
  brand: string;
  /** The provider's reason of a decline. */
  reason: string;
}

/** A provider with a hosted payment page. */
export interface HostedPageProvider {
  readonly name: string;
  /** The page to send the browser to for `req`. */
  createPaymentPage(req: HostedPaymentRequest): Promise<{ url: string }>;
  /** The callback's outcome when it is the provider's (its signature holds), else null. */
  verifyCallback(body: Record<string, unknown>): HostedCallback | null;
}

/** The signed fields of a callback, in order. */
const SIGNED = ['reference', 'status', 'token', 'lastFour', 'brand', 'reason'] as const;

/** HMAC-SHA-256 (hex) of a callback's fields under `key`. */
export function signCallback(key: Buffer, c: HostedCallback): string {
  return createHmac('sha256', key)
    .update(SIGNED.map((k) => c[k]).join('\n'))
    .digest('hex');
}

/** A page's request as the sandbox page's address carries it: base64url JSON and its HMAC. */
function signPage(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(`page\n${payload}`).digest('base64url');
}

function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The built-in sandbox's hosted page (served by this server at
 * /sandbox/hosted/pay?r=…, modules/members/members.hosted-page.ts). Stateless: the
 * page's address carries its request signed with the provider's key, so a
 * changed amount is refused. It tokenizes the typed card with the sandbox
 * provider (the test cards of sandbox.ts), then posts the signed callback.
 */
export class SandboxHostedPage implements HostedPageProvider {
  readonly name = 'sandbox';
  constructor(
    private readonly key: Buffer,
    private readonly clearing: ClearingProvider,
  ) {}

  async createPaymentPage(req: HostedPaymentRequest): Promise<{ url: string }> {
    const payload = Buffer.from(JSON.stringify(req)).toString('base64url');
    return { url: `/sandbox/hosted/pay?r=${payload}.${signPage(this.key, payload)}` };
  }

  /** The request a page address carries, when its signature holds. */
  pageRequest(address: string): HostedPaymentRequest | null {
    const [payload, sig] = address.split('.');
    if (!payload || !sig || !equalHex(signPage(this.key, payload), sig)) return null;
    try {
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as HostedPaymentRequest;
    } catch {
      return null;
    }
  }

  /**
   * The page's submit: tokenizes the card with the sandbox provider; the
   * callback to post (signed) and where the browser goes next. `cancel` is the
   * page's cancel button.
   */
  async submit(
    req: HostedPaymentRequest,
    form: { number?: string; expiry?: string; cvv?: string; cancel?: string },
  ): Promise<{ callback: HostedCallback & { signature: string } }> {
    let c: HostedCallback;
    if (form.cancel) {
      c = { reference: req.reference, status: 'cancelled', token: '', lastFour: '', brand: '', reason: 'cancelled' };
    } else {
      const t = await this.clearing.tokenize({
        number: (form.number ?? '').replace(/\D/g, ''),
        expiry: form.expiry ?? '',
        cvv: form.cvv ?? '',
      });
      c = t.ok
        ? {
            reference: req.reference,
            status: 'approved',
            token: t.token,
            lastFour: t.lastFour,
            brand: t.brand,
            reason: '',
          }
        : { reference: req.reference, status: 'declined', token: '', lastFour: '', brand: '', reason: t.reason };
    }
    return { callback: { ...c, signature: signCallback(this.key, c) } };
  }

  verifyCallback(body: Record<string, unknown>): HostedCallback | null {
    const c = Object.fromEntries(
      SIGNED.map((k) => [k, typeof body[k] === 'string' ? body[k] : '']),
    ) as unknown as HostedCallback;
    const sig = typeof body.signature === 'string' ? body.signature : '';
    return equalHex(signCallback(this.key, c), sig) ? c : null;
  }
}
