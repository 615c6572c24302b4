import { createContext, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { ToastQueue, type ToastConfig, type ToastInput, type ToastType } from './toastQueue';
import './toast.css';

const ToastContext = createContext<ToastQueue | null>(null);

/** What a toast call takes: the message, or a title, a message and per-toast config. */
export type ToastContent = string | Omit<ToastInput, 'type'>;

/** The one notification service of the console (seed 001 "Notification toasts"): `useToast().success(t('…'))`. */
export interface Toaster {
  success(content: ToastContent): number;
  error(content: ToastContent): number;
  info(content: ToastContent): number;
  warning(content: ToastContent): number;
  close(id: number): void;
}

/**
 * Holds the console's toast queue and renders the open toasts at the top of
 * the inline end (top-right in English, top-left in Hebrew),
 * newest on top (seed 001 defaults, `TOAST_DEFAULTS`). Mounted once, in the
 * locale provider, so every screen shares one queue.
 */
export function ToastProvider({ children, config }: { children: ReactNode; config?: Partial<ToastConfig> }) {
  const [queue] = useState(() => new ToastQueue(config));
  return (
    <ToastContext.Provider value={queue}>
      {children}
      <ToastHost queue={queue} />
    </ToastContext.Provider>
  );
}

/** The toast service of the signed-in console and the login page alike. */
export function useToast(): Toaster {
  const queue = useContext(ToastContext);
  if (!queue) throw new Error('useToast outside ToastProvider');
  return useMemo(() => {
    const show = (type: ToastType) => (c: ToastContent) =>
      queue.show(typeof c === 'string' ? { type, message: c } : { ...c, type });
    return {
      success: show('success'),
      error: show('error'),
      info: show('info'),
      warning: show('warning'),
      close: (id: number) => queue.close(id),
    };
  }, [queue]);
}

function useQueueVersion(queue: ToastQueue): number {
  const [store] = useState(() => {
    let version = 0;
    return {
      subscribe: (fn: () => void) =>
        queue.subscribe(() => {
          version += 1;
          fn();
        }),
      get: () => version,
    };
  });
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/**
 * The open toasts: each pauses while hovered, closes on a tap or its close
 * button, opens with the configured animation and shows a progress bar when
 * configured. Errors are announced assertively, others politely.
 */
function ToastHost({ queue }: { queue: ToastQueue }) {
  const { t } = useTranslation();
  useQueueVersion(queue);
  const toasts = queue.active();
  return (
    <div className="toast-host" data-testid="toasts">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className="toast"
          data-testid="toast"
          data-type={toast.type}
          role={toast.type === 'error' ? 'alert' : 'status'}
          style={{ animationDuration: `${queue.config.animationMs}ms` }}
          onMouseEnter={() => queue.hover(toast.id)}
          onMouseLeave={() => queue.leave(toast.id)}
          onClick={() => queue.tap(toast.id)}
        >
          <Alert
            type={toast.type}
            showIcon
            title={toast.title ?? toast.message}
            description={toast.title ? toast.message : undefined}
            closable={{ onClose: () => queue.close(toast.id), 'aria-label': t('common.close') }}
          />
          {toast.config.progressBar && toast.closesAt != null && (
            <div
              key={toast.closesAt}
              className="toast-progress"
              style={{ animationDuration: `${toast.countdown}ms` }}
            />
          )}
        </div>
      ))}
    </div>
  );
}
