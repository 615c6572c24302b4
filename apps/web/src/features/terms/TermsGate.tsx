import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { contract, LATEST_TERMS_VERSION } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { SESSION_QUERY_KEY, useAuth } from '../../platform/auth/AuthProvider';
import { errorText } from '../../shared/errors';
import { SignaturePad, type SignaturePadHandle } from './SignaturePad';
import './terms.css';

const TERMS_PARAGRAPHS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'] as const;

/**
 * Terms of use (seed 001 §2, §4; seed 000 §9 latest version 1): a signed-in
 * user whose accepted version is older must read, confirm and sign, or is
 * signed out ("skip / disconnect").
 */
export function TermsGate() {
  const { data, logout } = useAuth();
  const { t } = useTranslation();
  const qc = useQueryClient();
  const pad = useRef<SignaturePadHandle>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [signed, setSigned] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!data || data.user.termsVersion >= LATEST_TERMS_VERSION) return null;

  const submit = async () => {
    const signature = pad.current?.toDataUrl();
    if (!confirmed || !signature) return;
    setBusy(true);
    setError(null);
    try {
      await api.call(contract.users.acceptTerms, { body: { version: LATEST_TERMS_VERSION, signature } });
      await qc.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={720}
      title={t('terms.title')}
      data-testid="terms-modal"
      footer={
        <Space wrap>
          <Button danger onClick={logout} data-testid="terms-disconnect">
            {t('terms.disconnect')}
          </Button>
          <Button
            type="primary"
            disabled={!confirmed || !signed}
            loading={busy}
            onClick={() => void submit()}
            data-testid="terms-submit"
          >
            {t('terms.submit')}
          </Button>
        </Space>
      }
    >
      <div className="terms-text" data-testid="terms-text">
        {TERMS_PARAGRAPHS.map((p) => (
          <Typography.Paragraph key={p}>{t(`terms.body.${p}`)}</Typography.Paragraph>
        ))}
      </div>
      <Checkbox checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} data-testid="terms-confirm">
        {t('terms.confirm')}
      </Checkbox>
      <div className="signature-box">
        <Space style={{ justifyContent: 'space-between', inlineSize: '100%' }}>
          <Typography.Text strong>{t('terms.signHere')}</Typography.Text>
          <Button size="small" onClick={() => pad.current?.clear()} data-testid="terms-clear">
            {t('terms.clear')}
          </Button>
        </Space>
        <SignaturePad ref={pad} onChange={setSigned} label={t('terms.signHere')} />
      </div>
      {error && <Alert type="error" showIcon title={error} />}
    </Modal>
  );
}
