import { useState } from 'react';
import { Alert, Button, Card, Input, List, Modal, Space, Tag, Typography } from 'antd';
import { AlertOutlined, LockOutlined, UnlockOutlined, WarningOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contract, SAFETY_REASON_MIN, type SafetyState, type SafetyStep } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useCan } from '../../platform/auth/useCan';
import { QueryState } from '../../shared/QueryState';
import { errorText } from '../../shared/errors';
import { useFormat } from '../../shared/useFormat';
import { useToast } from '../../shared/toast/ToastProvider';
import { useOverrides, useSafetyState, useSafetyStep, useSetOverride, type SafetyStepName } from './useGateSafety';

/**
 * The gate safety screen (issue 36; docs/gate-safety.md): open every gate of the club at once
 * (evacuation) or lock them all down, and release either — each in two steps (a reason, then a
 * confirmation that says what will happen) and only with its own permission; and the clients
 * whose cards pass a lockdown.
 */
export function GateSafetyPage() {
  const { t } = useTranslation();
  const allowed = useCan();
  const state = useSafetyState();
  const [dialog, setDialog] = useState<SafetyStepName | null>(null);
  const mayOpenAll = allowed({ flag: 'roleEmergencyOpenAll' });
  const mayLock = allowed({ flag: 'roleLockdown' });
  return (
    <div className="gate-safety" data-testid="gate-safety">
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.gateSafety')}</Typography.Title>
      </div>
      <QueryState loading={state.isPending} error={state.error} onRetry={() => void state.refetch()}>
        {state.data && (
          <Space orientation="vertical" size="large" style={{ width: '100%' }}>
            <Typography.Paragraph>{t('gateSafety.intro')}</Typography.Paragraph>
            <EmergencyCard
              kind="openAll"
              state={state.data}
              allowed={mayOpenAll}
              onStart={() => setDialog('openAll')}
              onRelease={() => setDialog('releaseOpenAll')}
            />
            <EmergencyCard
              kind="lockdown"
              state={state.data}
              allowed={mayLock}
              onStart={() => setDialog('lockdown')}
              onRelease={() => setDialog('releaseLockdown')}
            />
            {mayLock && <OverridesCard />}
          </Space>
        )}
      </QueryState>
      {dialog && <StepDialog step={dialog} onClose={() => setDialog(null)} />}
    </div>
  );
}

/** One emergency: whether it is on (since when, why, by whom) and the button that starts or releases it. */
function EmergencyCard(props: {
  kind: 'openAll' | 'lockdown';
  state: SafetyState;
  allowed: boolean;
  onStart: () => void;
  onRelease: () => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { kind, state } = props;
  const step: SafetyStep | null = state[kind];
  const overridden = kind === 'lockdown' && step != null && state.openAll != null;
  return (
    <Card
      data-testid={`safety-card-${kind}`}
      title={
        <Space>
          {kind === 'openAll' ? <AlertOutlined /> : <LockOutlined />}
          {t(`gateSafety.${kind}.title`)}
          {step ? (
            <Tag color={kind === 'openAll' ? 'red' : 'orange'}>{t('gateSafety.on')}</Tag>
          ) : (
            <Tag>{t('gateSafety.off')}</Tag>
          )}
        </Space>
      }
    >
      <Typography.Paragraph>{t(`gateSafety.${kind}.what`)}</Typography.Paragraph>
      {step && (
        <Typography.Paragraph data-testid={`safety-${kind}-detail`}>
          {t('gateSafety.banner.detail', { reason: step.reason, by: step.by, since: fmt.dateTime(step.since) })}
        </Typography.Paragraph>
      )}
      {overridden && <Alert type="info" showIcon title={t('gateSafety.lockdown.underOpenAll')} />}
      {!props.allowed ? (
        <Typography.Text type="secondary">{t('gateSafety.notAllowed')}</Typography.Text>
      ) : step ? (
        <Button icon={<UnlockOutlined />} onClick={props.onRelease} data-testid={`safety-release-${kind}`}>
          {t(`gateSafety.${kind}.release`)}
        </Button>
      ) : (
        <Button
          danger
          type="primary"
          icon={<WarningOutlined />}
          onClick={props.onStart}
          data-testid={`safety-start-${kind}`}
        >
          {t(`gateSafety.${kind}.start`)}
        </Button>
      )}
    </Card>
  );
}

/**
 * The two steps of a change: first the reason (kept in the audit log and shown on every banner),
 * then a confirmation that says what happens now; only the second step calls the server.
 */
function StepDialog({ step, onClose }: { step: SafetyStepName; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const mutation = useSafetyStep();
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const ok = reason.trim().length >= SAFETY_REASON_MIN;
  const submit = () =>
    mutation.mutate(
      { step, body: { reason: reason.trim(), confirm: true } },
      {
        onSuccess: () => {
          toast.success(t(`gateSafety.done.${step}`));
          onClose();
        },
      },
    );
  return (
    <Modal
      open
      title={t(`gateSafety.dialog.${step}`)}
      onCancel={onClose}
      destroyOnHidden
      footer={
        confirming
          ? [
              <Button key="back" onClick={() => setConfirming(false)} disabled={mutation.isPending}>
                {t('common.back')}
              </Button>,
              <Button
                key="go"
                danger
                type="primary"
                loading={mutation.isPending}
                onClick={submit}
                data-testid="safety-confirm"
              >
                {t(`gateSafety.confirm.${step}`)}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={onClose}>
                {t('common.cancel')}
              </Button>,
              <Button
                key="next"
                type="primary"
                disabled={!ok}
                onClick={() => setConfirming(true)}
                data-testid="safety-next"
              >
                {t('gateSafety.next')}
              </Button>,
            ]
      }
    >
      {confirming ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon title={t(`gateSafety.warn.${step}`)} />
          <Typography.Text>
            {t('gateSafety.reasonLabel')}: <strong>{reason.trim()}</strong>
          </Typography.Text>
          {mutation.error && <Alert type="error" title={errorText(t, mutation.error)} />}
        </Space>
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <label htmlFor="safety-reason">{t('gateSafety.reasonLabel')}</label>
          <Input.TextArea
            id="safety-reason"
            data-testid="safety-reason"
            autoFocus
            maxLength={300}
            rows={3}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder={t('gateSafety.reasonPlaceholder')}
          />
          {!ok && reason.length > 0 && <Typography.Text type="danger">{t('validation.tooShort')}</Typography.Text>}
        </Space>
      )}
    </Modal>
  );
}

/** Who passes a lockdown: the list, withdraw, and a search (by card, code, name) to grant. */
function OverridesCard() {
  const { t } = useTranslation();
  const allowed = useCan();
  const list = useOverrides(true);
  const setOverride = useSetOverride();
  const mayFind = allowed({ route: contract.frontDesk.find.access });
  const [q, setQ] = useState('');
  const found = useQuery({
    queryKey: ['gate-safety', 'find', q],
    enabled: mayFind && q.trim() !== '',
    queryFn: () => api.call(contract.frontDesk.find, { query: { q } }),
  });
  const granted = new Set(list.data?.items.map((i) => i.clientId));
  return (
    <Card title={t('gateSafety.overrides.title')} data-testid="safety-overrides">
      <Typography.Paragraph>{t('gateSafety.overrides.what')}</Typography.Paragraph>
      <QueryState loading={list.isPending} error={list.error}>
        <List
          dataSource={list.data?.items ?? []}
          locale={{ emptyText: t('gateSafety.overrides.none') }}
          renderItem={(i) => (
            <List.Item
              actions={[
                <Button
                  key="w"
                  size="small"
                  onClick={() => setOverride.mutate({ clientId: i.clientId, granted: false })}
                >
                  {t('gateSafety.overrides.withdraw')}
                </Button>,
              ]}
            >
              {i.name} · #{i.number}
            </List.Item>
          )}
        />
      </QueryState>
      {mayFind && (
        <Space orientation="vertical" style={{ width: '100%', marginTop: 16 }}>
          <Input.Search
            aria-label={t('gateSafety.overrides.find')}
            placeholder={t('gateSafety.overrides.find')}
            onSearch={(v) => setQ(v.trim())}
            allowClear
          />
          {found.data && (
            <List
              size="small"
              dataSource={found.data.items}
              renderItem={(c) => (
                <List.Item
                  actions={[
                    <Button
                      key="g"
                      size="small"
                      disabled={granted.has(c.id)}
                      onClick={() => setOverride.mutate({ clientId: c.id, granted: true })}
                    >
                      {t('gateSafety.overrides.grant')}
                    </Button>,
                  ]}
                >
                  {`${c.firstName} ${c.lastName}`.trim()} · #{c.number}
                </List.Item>
              )}
            />
          )}
        </Space>
      )}
    </Card>
  );
}
