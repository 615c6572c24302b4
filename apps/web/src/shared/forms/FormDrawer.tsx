import type { ReactNode } from 'react';
import { Alert, Button, Drawer, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDrawerSide } from '../../app/i18n/LocaleProvider';
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
      {props.children}
    </Drawer>
  );
}
