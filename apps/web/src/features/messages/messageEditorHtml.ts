/** The link schemes a message may carry: the server's sanitiser keeps only these (docs/messages.md "Sanitising"). */
const SCHEMES = /^(https?:\/\/[^\s/]+|mailto:[^\s@]+@[^\s@]+)/i;
/** A bare domain (`example.org/path`), which gets `https://`. */
const BARE_DOMAIN = /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+(?::\d+)?([/?#]\S*)?$/u;
/** An address (`name@example.org`), which gets `mailto:`. */
const BARE_EMAIL = /^[^\s@/:]+@[^\s@/:]+\.[^\s@/:]+$/;

/**
 * The link the editor stores for what the operator typed: an `http(s)://` or
 * `mailto:` address as is; a bare domain with `https://`, a bare e-mail
 * address with `mailto:`; null for anything else (`javascript:`, `//host`,
 * `ftp:`, words), which the form refuses with a translated message.
 */
export function linkHref(input: string): string | null {
  const s = input.trim();
  if (s === '' || /\s/.test(s)) return null;
  if (SCHEMES.test(s)) return s;
  if (/^[a-z][a-z0-9+.-]*:/i.test(s) || s.startsWith('/')) return null;
  if (BARE_EMAIL.test(s)) return `mailto:${s}`;
  if (BARE_DOMAIN.test(s)) return `https://${s}`;
  return null;
}
