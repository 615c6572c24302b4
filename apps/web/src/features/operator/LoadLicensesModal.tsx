import { useEffect, useState } from 'react';
import { Form, Input, InputNumber, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OperatorClub } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { useLoadLicenses } from './useOperator';

/** Loads licenses into a club by hand, with a reason (docs/operator.md "Licenses"). */
export function LoadLicensesModal({ club, onClose }: { club: OperatorClub | null; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const load = useLoadLicenses();
  const [quantity, setQuantity] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  useEffect(() => {
    setQuantity(null);
    setReason('');
  }, [club]);
  const submit = () =>
    load.mutate(
      { id: club!.id, body: { quantity: quantity ?? 0, reason } },
      {
        onSuccess: (c) => {
          toast.success(t('operator.loaded', { name: c.name, count: c.licensesAmount }));
          onClose();
        },
        onError: (e) => toast.error(errorText(t, e)),
      },
    );
  return (
    <Modal
      open={club != null}
      title={club ? t('operator.loadTitle', { name: club.name }) : ''}
      onCancel={onClose}
      onOk={submit}
      okButtonProps={{ disabled: !quantity || quantity < 1 || !reason.trim() }}
      confirmLoading={load.isPending}
    >
      <Form layout="vertical">
        <Form.Item label={t('operator.quantity')} required>
          <InputNumber min={1} max={100000} precision={0} value={quantity} onChange={setQuantity} />
        </Form.Item>
        <Form.Item label={t('operator.loadReason')} required>
          <Input.TextArea rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
