import sanitizeHtml from 'sanitize-html';

/** The writing directions a block may name (`dir`); any other value drops the attribute. */
const DIRECTIONS = new Set(['ltr', 'rtl', 'auto']);
/** The blocks that may carry a direction: the console's editor puts `dir` on every block it writes. */
const BLOCKS = ['p', 'div', 'span', 'h1', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote'] as const;

/** A block's `dir` kept when it is a direction (lower-cased), dropped otherwise (sanitize-html would leave `dir=""`). */
function keepDirection(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const { dir, ...rest } = attribs;
  const d = dir?.trim().toLowerCase();
  return { tagName, attribs: d && DIRECTIONS.has(d) ? { ...rest, dir: d } : rest };
}

/**
 * The rich text a global message may carry (docs/messages.md "Sanitising"):
 * paragraphs, line breaks, emphasis, lists, headings, quotes and links
 * (http, https, mailto; opened in a new tab without the opener), each block
 * with an optional direction (`dir` = ltr, rtl or auto). This is a superset
 * of what the console's editor writes (MessageEditor.tsx), so its output is
 * stored unchanged. Everything else — scripts, styles, event handlers,
 * images, iframes, `javascript:` links — is removed on the server before the
 * message is stored, so the console may render the stored body as HTML.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['br', 'b', 'strong', 'i', 'em', 'u', 's', 'a', ...BLOCKS],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    ...Object.fromEntries(BLOCKS.map((tag) => [tag, ['dir']])),
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }),
    ...Object.fromEntries(BLOCKS.map((tag) => [tag, keepDirection])),
  },
};

/** `html` with only the allowed tags, attributes and link schemes left (sanitize-html, MIT). */
export function sanitizeMessageBody(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
