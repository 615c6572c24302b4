import type { KeyboardEvent, ReactNode } from 'react';
import { Alert, Button, Drawer, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDrawerSide } from '../../platform/i18n/LocaleProvider';
import { useViewport } from '../useMediaQuery';

/** The drawer shell of every edit form: title, the form, cancel/save, the save's spinner and root error. */
export interface FormDrawerProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  /** Submits the form (usually `() => form.submit()`). */
  onSave: () => void;
  /** True while the save call runs (spinner on the save button). */
  saving: boolean;
  /** Translated message of an error that belongs to no field (useSchemaForm's rootError). */
  rootError?: string | null;
  /** Width in pixels on tablets and desktops; phones get the whole screen. */
  width?: number;
  /** data-testid of the save button (the browser tests click it). */
  saveTestId?: string;
  /** Render the content while closed (a form instance connected before the first open). */
  forceRender?: boolean;
  /** Buttons before cancel/save. */
  extraActions?: ReactNode;
  children: ReactNode;
}

/** Error that belongs to no field, above a form (drawer or modal). */
export function FormRootError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return <Alert type="error" showIcon title={message} data-testid="form-root-error" style={{ marginBlockEnd: 16 }} />;
}

/** Controls where Enter already means something else: choosing in a list or date picker, a new line, a button. */
const ENTER_KEEPS =
  '.ant-select, .ant-picker, .ant-cascader, .ant-mentions, textarea, button, a, [contenteditable="true"]';

/**
 * Enter in a field submits the form (`save`), as in any form of the web; not
 * in a text area, a select or date picker (Enter chooses there), a button, or
 * while an input method is composing.
 */
export function submitOnEnter(save: () => void) {
  return (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Enter' || e.defaultPrevented || e.nativeEvent.isComposing) return;
    if (e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    if (target.tagName !== 'INPUT' || target.closest(ENTER_KEEPS)) return;
    const type = (target as HTMLInputElement).type;
    if (type === 'checkbox' || type === 'radio' || type === 'file') return;
    e.preventDefault();
    save();
  };
}

/**
 * An edit form in a drawer at the inline end of the current direction (left
 * in Hebrew), whole-screen on phones, emptied when closed.
 */
export function FormDrawer(props: FormDrawerProps) {
  const { t } = useTranslation();
  const side = useDrawerSide('end');
  const phone = useViewport() === 'phone';
  return (
    <Drawer
      open={props.open}
      onClose={props.onClose}
      placement={side}
      size={phone ? '100%' : (props.width ?? 520)}
      title={props.title}
      destroyOnHidden
      forceRender={props.forceRender}
      extra={
        <Space>
          {props.extraActions}
          <Button onClick={props.onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={props.saving} onClick={props.onSave} data-testid={props.saveTestId}>
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <FormRootError message={props.rootError} />
      {/* Enter submits (issue 19); the key event of any field bubbles here. */}
      <div onKeyDown={submitOnEnter(props.onSave)}>{props.children}</div>
    </Drawer>
  );
}
