import type { ReactNode } from 'react';
import { Tag } from 'antd';
import { CheckCircleOutlined, CloseCircleOutlined, MinusCircleOutlined, WalletOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { STATUS_COLOR_HEX, statusColor, type StatusColor } from '@venue/domain';

/**
 * The class's icon, so that the status does not rest on colour alone (WCAG 1.4.1;
 * docs/accessibility.md): a tick for entry, a cross for failed, a wallet for payment.
 */
const STATUS_ICON: Record<StatusColor, ReactNode> = {
  entry: <CheckCircleOutlined aria-hidden />,
  failed: <CloseCircleOutlined aria-hidden />,
  payment: <WalletOutlined aria-hidden />,
  worthless: <MinusCircleOutlined aria-hidden />,
};

/** An entrance status in its colour class (seed 000 §4: failed red, entry green, payment cyan), with its icon and name. */
export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const cls = statusColor(status);
  const hex = STATUS_COLOR_HEX[cls];
  return (
    <Tag
      color={cls === 'worthless' ? undefined : hex}
      icon={STATUS_ICON[cls]}
      data-status-color={cls}
      style={{ marginInlineEnd: 0 }}
    >
      {t(`status.${status}`, { defaultValue: String(status) })}
    </Tag>
  );
}
