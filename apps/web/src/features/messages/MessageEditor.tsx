import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Form, Input, Popover, Space } from 'antd';
import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EditorContent, Extension, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { Link } from '@tiptap/extension-link';
import { useDirection } from '../../platform/i18n/language';
import { linkHref } from './messageEditorHtml';
import { BlockDirection, normalizeDirections } from './blockDirection';
import './messages.css';

/**
 * The props antd's Form.Item gives its control (value/onChange of an HTML
 * string, the field's id and its aria state) plus the field's label.
 */
export interface MessageEditorProps {
  value?: string;
  onChange?: (html: string) => void;
  /** The accessible name of the text area (the form label's text). */
  label: string;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
  'data-testid'?: string;
}

/**
 * The editor's markup, kept to what the server's sanitiser stores
 * (apps/server/src/modules/global-messages/sanitize.ts, docs/messages.md
 * "The editor"): paragraphs, headings of levels 2 and 3, bold, italic,
 * underline, strike, bulleted and numbered lists, quotes, line breaks and
 * links; `dir="auto"` on each top-level block, or rtl/ltr where the
 * operator chose a direction (blockDirection.ts).
 * No code, code blocks, rules or images: the sanitiser would drop them.
 */
function extensions(openLink: { current: () => void }) {
  return [
    StarterKit.configure({
      heading: { levels: [2, 3] },
      code: false,
      codeBlock: false,
      horizontalRule: false,
      link: false,
    }),
    // Text typed or pasted right after a link is not part of it (TipTap's link grows when autolink is on).
    Link.extend({ inclusive: () => false }).configure({
      openOnClick: false,
      autolink: true,
      defaultProtocol: 'https',
      protocols: ['mailto'],
      isAllowedUri: (url) => linkHref(url) !== null,
      HTMLAttributes: { target: '_blank', rel: 'noopener noreferrer' },
    }),
    BlockDirection,
    // Ctrl/⌘+K opens the link form, as in most editors.
    Extension.create({
      name: 'linkShortcut',
      addKeyboardShortcuts: () => ({
        'Mod-k': () => {
          openLink.current();
          return true;
        },
      }),
    }),
  ];
}

/**
 * The global message's rich-text editor (TipTap 3, MIT): an antd Form control
 * whose value is the body's HTML ('' when empty). Its own changes go out
 * through `onChange`; a value set from outside (a message opened for editing,
 * the form reset) replaces the content without entering the undo history.
 * Loaded on demand (LazyMessageEditor) so the sign-in and first screens do
 * not carry ProseMirror.
 */
export function MessageEditor(props: MessageEditorProps) {
  const { value, onChange, label, id } = props;
  const { status } = Form.Item.useStatus();
  const direction = useDirection();
  const lastHtml = useRef(value ?? '');
  const onChangeRef = useRef(onChange);
  const [linkOpen, setLinkOpen] = useState(false);
  const openLink = useRef(() => setLinkOpen(true));
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // One array for the editor's life: useEditor compares it by identity on every render.
  const [editorExtensions] = useState(() => extensions(openLink));
  const editor = useEditor({
    extensions: editorExtensions,
    content: value ?? '',
    // The stored body's blocks in the editor's shape (blockDirection.ts), outside the undo history.
    onCreate: ({ editor: e }) => {
      const tr = normalizeDirections(e.state.tr);
      if (tr) e.view.dispatch(tr.setMeta('addToHistory', false));
    },
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : e.getHTML();
      lastHtml.current = html;
      onChangeRef.current?.(html);
    },
  });

  // The field's id, name and aria state on the editable element itself.
  const describedBy = props['aria-describedby'];
  const invalid = props['aria-invalid'];
  const required = props['aria-required'];
  const testId = props['data-testid'];
  useEffect(() => {
    const attributes: Record<string, string> = {
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-label': label,
      class: 'message-editor-content',
      spellcheck: 'true',
    };
    if (id) attributes.id = id;
    if (describedBy) attributes['aria-describedby'] = describedBy;
    if (invalid === true || invalid === 'true') attributes['aria-invalid'] = 'true';
    if (required === true || required === 'true') attributes['aria-required'] = 'true';
    if (testId) attributes['data-testid'] = testId;
    editor.setOptions({ editorProps: { attributes } });
  }, [editor, label, id, describedBy, invalid, required, testId]);

  // A value from outside (not the editor's own last change) replaces the content.
  useEffect(() => {
    const html = value ?? '';
    if (html === lastHtml.current) return;
    lastHtml.current = html;
    editor
      .chain()
      .command(({ tr }) => {
        tr.setMeta('addToHistory', false);
        return true;
      })
      .setContent(html, { emitUpdate: false })
      .run();
  }, [editor, value]);

  return (
    <div className={`message-editor${status === 'error' ? ' message-editor-error' : ''}`} dir={direction}>
      <Toolbar editor={editor} linkOpen={linkOpen} setLinkOpen={setLinkOpen} />
      <EditorContent editor={editor} />
    </div>
  );
}

/** What the toolbar shows as pressed or possible, read on every change of the editor's state. */
function toolbarState(editor: Editor) {
  const dir: unknown = editor.state.selection.$from.parent.attrs.dir;
  return {
    bold: editor.isActive('bold'),
    italic: editor.isActive('italic'),
    underline: editor.isActive('underline'),
    bulletList: editor.isActive('bulletList'),
    orderedList: editor.isActive('orderedList'),
    h2: editor.isActive('heading', { level: 2 }),
    h3: editor.isActive('heading', { level: 3 }),
    link: editor.isActive('link'),
    href: String(editor.getAttributes('link').href ?? ''),
    rtl: dir === 'rtl',
    ltr: dir === 'ltr',
    canUndo: editor.can().undo(),
    canRedo: editor.can().redo(),
  };
}

function Toolbar({
  editor,
  linkOpen,
  setLinkOpen,
}: {
  editor: Editor;
  linkOpen: boolean;
  setLinkOpen: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const s = useEditorState({ editor, selector: ({ editor: e }) => toolbarState(e) });
  const run = (f: (c: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () =>
    f(editor.chain().focus()).run();
  const direction = (d: 'rtl' | 'ltr', pressed: boolean) => run((c) => c.setTextDirection(pressed ? 'auto' : d));
  const roving = useRovingFocus(useDirection());
  return (
    <div
      className="message-editor-toolbar"
      role="toolbar"
      aria-label={t('messages.editor.toolbar')}
      ref={roving.ref}
      onFocus={roving.onFocus}
      onKeyDown={roving.onKeyDown}
    >
      <ToolButton
        label={t('messages.editor.bold')}
        keys="Control+B"
        pressed={s.bold}
        onClick={run((c) => c.toggleBold())}
      >
        <BoldOutlined />
      </ToolButton>
      <ToolButton
        label={t('messages.editor.italic')}
        keys="Control+I"
        pressed={s.italic}
        onClick={run((c) => c.toggleItalic())}
      >
        <ItalicOutlined />
      </ToolButton>
      <ToolButton
        label={t('messages.editor.underline')}
        keys="Control+U"
        pressed={s.underline}
        onClick={run((c) => c.toggleUnderline())}
      >
        <UnderlineOutlined />
      </ToolButton>
      <span className="message-editor-sep" aria-hidden />
      <ToolButton
        label={t('messages.editor.heading')}
        keys="Control+Alt+2"
        pressed={s.h2}
        onClick={run((c) => c.toggleHeading({ level: 2 }))}
        testId="editor-h2"
      >
        <span className="message-editor-glyph">{t('messages.editor.headingShort')}</span>
      </ToolButton>
      <ToolButton
        label={t('messages.editor.subheading')}
        keys="Control+Alt+3"
        pressed={s.h3}
        onClick={run((c) => c.toggleHeading({ level: 3 }))}
        testId="editor-h3"
      >
        <span className="message-editor-glyph small">{t('messages.editor.subheadingShort')}</span>
      </ToolButton>
      <span className="message-editor-sep" aria-hidden />
      <ToolButton
        label={t('messages.editor.bulletList')}
        keys="Control+Shift+8"
        pressed={s.bulletList}
        onClick={run((c) => c.toggleBulletList())}
      >
        <UnorderedListOutlined />
      </ToolButton>
      <ToolButton
        label={t('messages.editor.orderedList')}
        keys="Control+Shift+7"
        pressed={s.orderedList}
        onClick={run((c) => c.toggleOrderedList())}
      >
        <OrderedListOutlined />
      </ToolButton>
      <LinkButton editor={editor} active={s.link} href={s.href} open={linkOpen} setOpen={setLinkOpen} />
      <span className="message-editor-sep" aria-hidden />
      <ToolButton label={t('messages.editor.rtl')} pressed={s.rtl} onClick={direction('rtl', s.rtl)}>
        <DirectionIcon dir="rtl" />
      </ToolButton>
      <ToolButton label={t('messages.editor.ltr')} pressed={s.ltr} onClick={direction('ltr', s.ltr)}>
        <DirectionIcon dir="ltr" />
      </ToolButton>
      <span className="message-editor-sep" aria-hidden />
      <ToolButton
        label={t('messages.editor.undo')}
        keys="Control+Z"
        disabled={!s.canUndo}
        onClick={run((c) => c.undo())}
      >
        <UndoOutlined />
      </ToolButton>
      <ToolButton
        label={t('messages.editor.redo')}
        keys="Control+Shift+Z"
        disabled={!s.canRedo}
        onClick={run((c) => c.redo())}
      >
        <RedoOutlined />
      </ToolButton>
    </div>
  );
}

/**
 * The toolbar is one stop of the Tab key (WAI-ARIA APG "Toolbar"): the
 * button last focused (at first the first) has tabindex 0, the others -1;
 * the arrow keys move along the buttons in reading order (mirrored right to
 * left), Home and End to the first and last. Disabled buttons are skipped.
 */
function useRovingFocus(direction: 'rtl' | 'ltr') {
  const ref = useRef<HTMLDivElement>(null);
  const current = useRef<HTMLButtonElement | null>(null);
  const buttons = () => Array.from(ref.current?.querySelectorAll('button') ?? []).filter((b) => !b.disabled);
  const mark = () => {
    const list = buttons();
    const stop = current.current && list.includes(current.current) ? current.current : list[0];
    for (const b of list) b.tabIndex = b === stop ? 0 : -1;
    for (const b of ref.current?.querySelectorAll('button:disabled') ?? []) (b as HTMLButtonElement).tabIndex = -1;
  };
  // After every render: a button enabled or disabled since (undo, redo) keeps one stop.
  useEffect(mark);
  return {
    ref,
    onFocus: (e: FocusEvent) => {
      if (e.target instanceof HTMLButtonElement && buttons().includes(e.target)) {
        current.current = e.target;
        mark();
      }
    },
    onKeyDown: (e: KeyboardEvent) => {
      const list = buttons();
      const at = list.indexOf(document.activeElement as HTMLButtonElement);
      if (at < 0) return;
      const forward = direction === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
      const back = direction === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
      const next =
        e.key === forward
          ? (at + 1) % list.length
          : e.key === back
            ? (at - 1 + list.length) % list.length
            : e.key === 'Home'
              ? 0
              : e.key === 'End'
                ? list.length - 1
                : -1;
      if (next < 0) return;
      e.preventDefault();
      list[next].focus();
    },
  };
}

/** A toolbar button: its name translated, a toggle's state as aria-pressed, its shortcut as aria-keyshortcuts. */
function ToolButton({
  label,
  keys,
  pressed,
  disabled,
  onClick,
  testId,
  children,
}: {
  label: string;
  keys?: string;
  pressed?: boolean;
  disabled?: boolean;
  /** Left out where a wrapper (the link's popover) handles the click. */
  onClick?: () => void;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Button
      type="text"
      size="small"
      className={pressed ? 'message-editor-button pressed' : 'message-editor-button'}
      aria-label={label}
      title={label}
      aria-pressed={pressed === undefined ? undefined : pressed}
      aria-keyshortcuts={keys}
      disabled={disabled}
      // Keep the editor's selection: a click on the toolbar must not take the focus first.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}

/** The link button and its form: an http, https or mailto address; a bare domain gets https://. */
function LinkButton({
  editor,
  active,
  href,
  open,
  setOpen,
}: {
  editor: Editor;
  active: boolean;
  href: string;
  open: boolean;
  setOpen: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const [address, setAddress] = useState('');
  const [error, setError] = useState(false);
  useEffect(() => {
    if (open) {
      setAddress(href);
      setError(false);
    }
  }, [open, href]);
  const close = () => {
    setOpen(false);
    editor.commands.focus();
  };
  const apply = () => {
    const url = linkHref(address);
    if (!url) {
      setError(true);
      return;
    }
    const chain = editor.chain().focus().extendMarkRange('link');
    if (editor.state.selection.empty && !active)
      chain.insertContent({ type: 'text', text: url, marks: [{ type: 'link', attrs: { href: url } }] }).run();
    else chain.setLink({ href: url }).run();
    setOpen(false);
  };
  const remove = () => {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    setOpen(false);
  };
  const content = (
    <form
      className="message-editor-link"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
      onKeyDown={(e) => {
        // The drawer saves the message on Enter in an input and closes on Escape: here they are the link's.
        if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
          e.preventDefault();
          e.stopPropagation();
          apply();
        } else if (e.key === 'Escape') {
          e.stopPropagation();
          close();
        }
      }}
    >
      <Input
        autoFocus
        dir="ltr"
        value={address}
        status={error ? 'error' : undefined}
        aria-label={t('messages.editor.linkAddress')}
        aria-invalid={error}
        aria-describedby={error ? 'message-editor-link-error' : undefined}
        placeholder="https://"
        onChange={(e) => {
          setAddress(e.target.value);
          setError(false);
        }}
        data-testid="editor-link-address"
      />
      {error && (
        <div id="message-editor-link-error" role="alert" className="message-editor-link-error">
          {t('messages.editor.linkInvalid')}
        </div>
      )}
      <Space size={8} className="message-editor-link-actions">
        <Button type="primary" size="small" htmlType="submit" data-testid="editor-link-apply">
          {t('messages.editor.linkApply')}
        </Button>
        {active && (
          <Button size="small" onClick={remove}>
            {t('messages.editor.linkRemove')}
          </Button>
        )}
        <Button size="small" onClick={close}>
          {t('common.cancel')}
        </Button>
      </Space>
    </form>
  );
  return (
    <Popover open={open} onOpenChange={(o) => (o ? setOpen(true) : close())} trigger="click" content={content}>
      <span>
        <ToolButton label={t('messages.editor.link')} keys="Control+K" pressed={active} testId="editor-link">
          <LinkOutlined />
        </ToolButton>
      </span>
    </Popover>
  );
}

/** The pilcrow with an arrow of the usual "text direction" buttons. */
function DirectionIcon({ dir }: { dir: 'rtl' | 'ltr' }) {
  const arrow = dir === 'rtl' ? 'M20 19H6m0 0 3-3m-3 3 3 3' : 'M4 19h14m0 0-3-3m3 3-3 3';
  return (
    <svg width="1em" height="1em" viewBox="0 0 24 24" aria-hidden focusable="false" fill="none" stroke="currentColor">
      <path d="M10 3v11M14 3v11M16 3H9.5a3.5 3.5 0 0 0 0 7H10" strokeWidth="2" strokeLinecap="round" />
      <path d={arrow} strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
