import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { useAgent } from 'request-filtering-agent';

/**
 * Requests the server makes to addresses its users give (the incident
 * webhook, docs/security.md "Outgoing requests"): only to the public
 * internet. Loopback, private (10/8, 172.16/12, 192.168/16), link-local
 * (169.254/16 — the cloud metadata address —, fe80::/10), unique-local
 * (fc00::/7), carrier-grade NAT (100.64/10), unspecified, multicast and
 * reserved addresses are refused when the URL is saved (a literal address or
 * a local name) and again when it is sent: the address actually connected to,
 * after DNS, is checked by `request-filtering-agent` (DNS rebinding and
 * names such as 127.0.0.1.nip.io included). An operator with an on-premise
 * receiver lists its addresses in WEBHOOK_ALLOW_ADDRESSES (CIDRs).
 */
export interface OutboundPolicy {
  /** CIDRs (or single addresses) that may be reached although not public. */
  allow: readonly string[];
}

/** Why a URL is refused at save: a catalogue code of the `url` field. */
export type UrlRefusal = 'webhookUrl' | 'webhookCredentials' | 'webhookAddress';

const LOCAL_NAMES = /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.(localhost|local|internal)$/i;

function allowed(addr: ipaddr.IPv4 | ipaddr.IPv6, allow: readonly string[]): boolean {
  for (const cidr of allow) {
    try {
      const [net, bits] = cidr.includes('/') ? ipaddr.parseCIDR(cidr) : [ipaddr.parse(cidr), -1];
      const len = bits < 0 ? (net.kind() === 'ipv4' ? 32 : 128) : bits;
      if (net.kind() === addr.kind() && addr.match(net as never, len)) return true;
    } catch {
      // A malformed entry allows nothing.
    }
  }
  return false;
}

/**
 * Checks a URL before it is saved: http or https, no user name or password in
 * it, and its host neither a local name nor a literal address outside the
 * public internet (unless in `policy.allow`). The WHATWG parser has already
 * normalised the spellings of an address (127.1, 0x7f.1, 2130706433,
 * [::ffff:127.0.0.1]). A name is resolved only when sent.
 * @returns the refusal's code, or null when the URL may be saved
 */
export function urlRefusal(raw: string, policy: OutboundPolicy): UrlRefusal | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'webhookUrl';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'webhookUrl';
  if (url.username || url.password) return 'webhookCredentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    let addr = ipaddr.parse(host);
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
      addr = (addr as ipaddr.IPv6).toIPv4Address();
    if (addr.range() !== 'unicast' && !allowed(addr, policy.allow)) return 'webhookAddress';
    return null;
  }
  if (LOCAL_NAMES.test(host) && !policy.allow.length) return 'webhookAddress';
  return null;
}

/** What a staff member sees of a failed delivery (never the socket's own words: no port-scan oracle). */
export type DeliveryFailure = 'refused' | 'timeout' | 'network';

/** The category of a sending error: refused by the address policy, timed out, or any other network failure. */
export function deliveryFailure(err: unknown): DeliveryFailure {
  const msg = err instanceof Error ? err.message : String(err);
  if (/is not allowed|not a public address/i.test(msg)) return 'refused';
  if (/timeout|timed out|aborted/i.test(msg)) return 'timeout';
  return 'network';
}

/**
 * POSTs `body` to `url` through the filtering agent, without following
 * redirects, within `timeoutMs`; resolves with the HTTP status.
 * @throws Error when refused by the policy (the message says "is not allowed"), on a timeout or a network error
 */
export function postPublic(
  url: string,
  init: { headers: Record<string, string>; body: string },
  policy: OutboundPolicy,
  timeoutMs: number,
): Promise<number> {
  if (urlRefusal(url, policy)) return Promise.reject(new Error(`${url}: not a public address`));
  const target = new URL(url);
  const agent = useAgent(url, { allowIPAddressList: [...policy.allow], keepAlive: false });
  const request = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        agent,
        headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(init.body);
  });
}
