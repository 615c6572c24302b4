import { useEffect } from 'react';

/**
 * What antd and its parts write for screen readers in English whatever the
 * locale (issue 35; docs/accessibility.md "Keyboard and screen readers"):
 *  - every icon is `role="img"` with its English file name as its name
 *    ("caret-up", "plus"), read inside every button with a text;
 *  - a focused tab announces "Tab 3 of 9" (rc-tabs);
 *  - the 403/404 pictures carry the SVG titles "Unauthorized", "No Found".
 * antd has no setting for these, so the document is corrected as it changes:
 * an icon beside a name or a text is decorative (hidden from screen readers);
 * an icon that is a control's only content gives the control the title its
 * item carries (the pager's translated "previous page"), else keeps its name;
 * the tab's announcement is said in the interface language; the pictures are
 * hidden (the page's title says what happened).
 */
export interface ScreenReaderWords {
  /** "Tab {{n}} of {{count}}" in the interface language. */
  tabOf: (n: number, count: number) => string;
  /** The name of a control whose only content is this icon (antd's search button: "search"), if known. */
  iconControl: (iconName: string) => string | undefined;
}

const CONTROL = 'button, a, [role="button"], [role="tab"], [role="menuitem"], [role="option"], [role="switch"]';

/** The control's accessible name without its icons: its label, title or its own text. */
function namedWithoutIcon(control: Element): boolean {
  if (control.getAttribute('aria-label')?.trim() || control.getAttribute('aria-labelledby')) return true;
  if (control.getAttribute('title')?.trim()) return true;
  const copy = control.cloneNode(true) as Element;
  copy.querySelectorAll('.anticon').forEach((i) => i.remove());
  return (copy.textContent ?? '').trim().length > 0;
}

function hide(icon: Element): void {
  icon.setAttribute('aria-hidden', 'true');
  icon.removeAttribute('aria-label');
  icon.removeAttribute('role');
}

/** One icon: decorative beside a name; the only content of a control: the control takes its item's title. */
export function fixIcon(icon: Element, words?: ScreenReaderWords): void {
  if (icon.getAttribute('aria-hidden') === 'true') return;
  const control = icon.closest(CONTROL);
  if (!control || namedWithoutIcon(control)) {
    // Beside a text, or outside any control (a status tag beside its name): decorative.
    hide(icon);
    return;
  }
  const title =
    control.closest('[title]')?.getAttribute('title')?.trim() ??
    words?.iconControl(icon.getAttribute('aria-label') ?? '');
  if (title) {
    control.setAttribute('aria-label', title);
    hide(icon);
  }
}

/** Corrects what is in `root` now (see the module's comment). */
export function fixScreenReaderText(root: ParentNode, words: ScreenReaderWords): void {
  root.querySelectorAll('.anticon[role="img"]').forEach((icon) => fixIcon(icon, words));
  root
    .querySelectorAll('.ant-result-image svg:not([aria-hidden])')
    .forEach((svg) => svg.setAttribute('aria-hidden', 'true'));
  root.querySelectorAll('.ant-tabs-tab [aria-live]').forEach((live) => {
    const m = /^Tab (\d+) of (\d+)$/.exec(live.textContent ?? '');
    if (m) live.textContent = words.tabOf(Number(m[1]), Number(m[2]));
  });
}

/** Keeps the document corrected while it changes (one observer on the body). */
export function useScreenReaderText(words: ScreenReaderWords): void {
  useEffect(() => {
    let pending = false;
    const run = () => {
      pending = false;
      fixScreenReaderText(document.body, words);
    };
    run();
    const observer = new MutationObserver(() => {
      if (pending) return;
      pending = true;
      queueMicrotask(run);
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [words]);
}
