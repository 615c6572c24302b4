import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Blocker } from 'react-router';

/**
 * "Changes not saved" (seed 001 §8) when leaving a screen with unsaved
 * changes inside the console: leave (danger) or stay. `blocker` is the
 * screen's useBlocker.
 */
export function UnsavedChangesModal({ blocker }: { blocker: Blocker }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={blocker.state === 'blocked'}
      title={t('common.unsaved')}
      okText={t('common.leave')}
      cancelText={t('common.stay')}
      okButtonProps={{ danger: true }}
      onOk={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      {t('common.unsavedBody')}
    </Modal>
  );
}
