import type { ReactNode } from 'react';
import { Alert, Button, Empty, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from './errors';

/** Loading, error (translated by code) and empty states of a query-backed block. */
export function QueryState({
  loading,
  error,
  empty,
  onRetry,
  children,
}: {
  loading: boolean;
  error: unknown;
  empty?: boolean;
  onRetry?: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (loading) {
    return (
      <div className="center-block" data-testid="loading">
        <Spin />
      </div>
    );
  }
  if (error) {
    return (
      <Alert
        type="error"
        showIcon
        title={errorText(t, error)}
        action={
          onRetry ? (
            <Button size="small" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          ) : undefined
        }
      />
    );
  }
  if (empty) return <Empty description={t('common.noData')} />;
  return <>{children}</>;
}
