/**
 * A global message's body. The server keeps only safe tags and attributes
 * (sanitize-html, docs/messages.md "Sanitising"), so the stored HTML is
 * rendered as is; `dir="auto"` lets a Hebrew or English body read its way.
 */
export function MessageBody({ html }: { html: string }) {
  return <div className="message-body" dir="auto" dangerouslySetInnerHTML={{ __html: html }} />;
}
