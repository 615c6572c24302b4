import sanitizeHtml from 'sanitize-html';

/**
 * The rich text a global message may carry (docs/messages.md "Sanitising"):
 * paragraphs, line breaks, emphasis, lists, headings, quotes and links
 * (http, https, mailto; opened in a new tab without the opener). Everything
 * else — scripts, styles, event handlers, images, iframes, `javascript:`
 * links — is removed on the server before the message is stored, so the
 * console may render the stored body as HTML.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'b',
    'strong',
    'i',
    'em',
    'u',
    's',
    'ul',
    'ol',
    'li',
    'h1',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'a',
    'span',
    'div',
  ],
  allowedAttributes: { a: ['href', 'target', 'rel'], p: ['dir'], div: ['dir'], span: ['dir'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }),
  },
};

/** `html` with only the allowed tags, attributes and link schemes left (sanitize-html, MIT). */
export function sanitizeMessageBody(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
