import { Extension } from '@tiptap/react';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';

/** The blocks that carry a writing direction (the server's sanitiser keeps `dir` on them). */
const DIRECTED = ['paragraph', 'heading', 'bulletList', 'orderedList', 'listItem', 'blockquote'];
type Dir = 'ltr' | 'rtl' | 'auto' | null;

/**
 * Each top-level block `dir="auto"` unless the operator chose rtl or ltr; a
 * nested block only a chosen direction. Why not `auto` on every block, as
 * TipTap's own `textDirection: 'auto'` does: the browser resolves `auto` from
 * the text outside descendants that have their own `dir`, so a list item whose
 * paragraph says `auto` finds no text, reads left to right and puts a Hebrew
 * item's bullet on the wrong side. Answers `tr` with the changes, or null.
 */
export function normalizeDirections(tr: Transaction): Transaction | null {
  const doc = tr.doc;
  let changed = false;
  doc.descendants((node, pos, parent) => {
    if (!DIRECTED.includes(node.type.name)) return true;
    const dir = (node.attrs.dir ?? null) as Dir;
    const want: Dir = parent === doc ? (dir ?? 'auto') : dir === 'auto' ? null : dir;
    if (want !== dir) {
      tr.setNodeMarkup(pos, undefined, { ...node.attrs, dir: want });
      changed = true;
    }
    return true;
  });
  return changed ? tr : null;
}

/**
 * The `dir` attribute of the message's blocks (`setTextDirection('rtl' |
 * 'ltr' | 'auto')`, a command of TipTap's core, sets it on the blocks of the
 * selection), kept in the shape normalizeDirections describes.
 */
export const BlockDirection = Extension.create({
  name: 'blockDirection',
  addGlobalAttributes: () => [
    {
      types: DIRECTED,
      attributes: {
        dir: {
          default: null,
          parseHTML: (element: HTMLElement) => {
            const d = element.getAttribute('dir')?.trim().toLowerCase();
            return d === 'ltr' || d === 'rtl' || d === 'auto' ? d : null;
          },
          renderHTML: (attributes: { dir?: Dir }) => (attributes.dir ? { dir: attributes.dir } : {}),
        },
      },
    },
  ],
  addProseMirrorPlugins: () => [
    new Plugin({
      key: new PluginKey('blockDirection'),
      appendTransaction: (transactions, _old, state) =>
        transactions.some((t) => t.docChanged) ? normalizeDirections(state.tr) : null,
    }),
  ],
});
