import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import type { MessageEditorProps } from './MessageEditor';

/** TipTap and ProseMirror in their own file, fetched when the composer first renders (docs/messages.md "The editor"). */
const MessageEditor = lazy(() => import('./MessageEditor').then((m) => ({ default: m.MessageEditor })));

/** The message editor, loaded on demand: a placeholder the editor's height stands in while it loads. */
export function LazyMessageEditor(props: MessageEditorProps) {
  return (
    <Suspense
      fallback={
        <div className="message-editor message-editor-loading" aria-busy="true">
          <Skeleton active title={false} paragraph={{ rows: 4 }} />
        </div>
      }
    >
      <MessageEditor {...props} />
    </Suspense>
  );
}
