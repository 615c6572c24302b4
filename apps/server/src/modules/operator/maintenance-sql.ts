import { AppError } from '../../lib/errors.js';

/** First words of a statement the maintenance query accepts: queries only. */
const QUERY_START = /^(select|with|values|table)\b/i;

/**
 * Checks the text of a maintenance query (POST /Db/ExecuteSql; docs/operator.md)
 * lexically — string literals ('…', E'…', "…", $tag$…$tag$) and comments
 * (`--`, nested `/* … *\/`) skipped — and answers the one statement without
 * its trailing semicolons.
 * @throws AppError SQL_MULTIPLE_STATEMENTS (422) when anything but
 *   whitespace, comments or semicolons follows the first top-level `;`
 * @throws AppError SQL_NOT_READ_ONLY (422) when the statement does not start
 *   with SELECT, WITH, VALUES or TABLE (after comments)
 * @throws AppError VALIDATION_ERROR (400) for an unterminated literal or comment
 */
export function singleQueryStatement(text: string): string {
  const lexed = lex(text);
  if (lexed.afterEnd) throw new AppError('SQL_MULTIPLE_STATEMENTS', 'Only one statement may be run');
  const statement = text.slice(0, lexed.end).trim();
  if (!QUERY_START.test(lexed.code.trimStart())) {
    throw new AppError('SQL_NOT_READ_ONLY', 'Only read-only queries may be run');
  }
  return statement;
}

/**
 * Walks `text`: `code` is the text of the first statement with literals and
 * comments blanked, `end` the index of its first top-level `;` (or the
 * length), `afterEnd` whether code follows it.
 */
function lex(text: string): { code: string; end: number; afterEnd: boolean } {
  let code = '';
  let end = -1;
  let i = 0;
  while (i < text.length) {
    const skip = skipLiteralOrComment(text, i);
    if (skip > i) {
      if (end < 0) code += ' ';
      i = skip;
      continue;
    }
    const ch = text[i];
    if (end >= 0) {
      if (!/[\s;]/.test(ch)) return { code, end, afterEnd: true };
    } else if (ch === ';') {
      end = i;
    } else {
      code += ch;
    }
    i++;
  }
  return { code, end: end < 0 ? text.length : end, afterEnd: false };
}

/** The index after the literal or comment starting at `i`, or `i` when none starts there. */
function skipLiteralOrComment(text: string, i: number): number {
  const ch = text[i];
  const next = text[i + 1];
  if (ch === '-' && next === '-') {
    const nl = text.indexOf('\n', i);
    return nl < 0 ? text.length : nl + 1;
  }
  if (ch === '/' && next === '*') return skipBlockComment(text, i);
  if (ch === "'") return skipQuoted(text, i, "'", /[eE]/.test(text[i - 1] ?? '') && !/\w/.test(text[i - 2] ?? ''));
  if (ch === '"') return skipQuoted(text, i, '"', false);
  if (ch === '$') {
    const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i));
    if (tag && !/\w/.test(text[i - 1] ?? '')) {
      const close = text.indexOf(tag[0], i + tag[0].length);
      if (close < 0) throw unterminated();
      return close + tag[0].length;
    }
  }
  return i;
}

function skipBlockComment(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text.startsWith('/*', i)) {
      depth++;
      i += 2;
    } else if (text.startsWith('*/', i)) {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  throw unterminated();
}

function skipQuoted(text: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (backslashEscapes && ch === '\\') i += 2;
    else if (ch === quote && text[i + 1] === quote) i += 2;
    else if (ch === quote) return i + 1;
    else i++;
  }
  throw unterminated();
}

function unterminated(): AppError {
  return new AppError('VALIDATION_ERROR', 'Unterminated literal or comment', [
    { path: 'data', message: 'invalidText' },
  ]);
}
