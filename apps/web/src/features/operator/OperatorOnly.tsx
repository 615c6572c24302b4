import type { ReactNode } from 'react';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/auth/useCan';

/** An operator screen's content for the SuperUser only (`can({operator})`, docs/operator.md); others see "not authorized". */
export function OperatorOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const isOperator = useCan()({ operator: true });
  if (!isOperator) return <Result status="403" title={t('errors.NOT_AUTHORIZED')} />;
  return children;
}
