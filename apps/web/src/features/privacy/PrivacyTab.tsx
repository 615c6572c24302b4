import { useState } from 'react';
import { Alert, Button, Card, InputNumber, Modal, Radio, Space, Table, Typography } from 'antd';
import { DeleteOutlined, DownloadOutlined, FilePdfOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { codeI18nKey, type DataAccessRow, type ErasureResult } from '@venue/domain';
import { downloadFile } from '../../shared/download';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { useClientFormat } from '../clients/clientFormat';
import type { ClientTab } from '../clients/clientTab';
import { useClientAccess, useEraseClient } from './usePrivacy';

/**
 * The client page's privacy tab (issue 39, docs/privacy.md), for the club's security officer: her
 * full copy as JSON or as a PDF in Hebrew or English, erasure behind a confirmation (her client
 * number typed again), and who opened her record.
 */
function PrivacyTab({ clientId, number }: { clientId: number; number: number }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [lang, setLang] = useState<'he' | 'en'>('he');
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState<number | null>(null);
  const [done, setDone] = useState<ErasureResult | null>(null);
  const erase = useEraseClient(clientId);
  const access = useClientAccess(clientId);
  const fmt = useClientFormat();
  const download = (path: string, name: string) =>
    downloadFile(path, { query: { lang } }, name).catch((err: unknown) => toast.error(errorText(t, err)));
  const confirm = async () => {
    try {
      setDone(await erase.mutateAsync(typed ?? 0));
      setOpen(false);
      toast.success(t('privacy.erased'));
    } catch (err) {
      toast.error(errorText(t, err));
    }
  };
  const tables = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([k, n]) => `${k} (${n})`)
      .join(', ') || '—';
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="privacy-tab">
      <Card size="small" title={t('privacy.copyTitle')}>
        <Typography.Paragraph type="secondary">{t('privacy.copyHelp')}</Typography.Paragraph>
        <Space wrap>
          <Radio.Group value={lang} onChange={(e) => setLang(e.target.value as 'he' | 'en')} optionType="button">
            <Radio.Button value="he">עברית</Radio.Button>
            <Radio.Button value="en">English</Radio.Button>
          </Radio.Group>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void download(`/Privacy/ClientCopy/${clientId}`, `client-${number}-copy.json`)}
            data-testid="privacy-copy-json"
          >
            {t('privacy.copyJson')}
          </Button>
          <Button
            icon={<FilePdfOutlined />}
            onClick={() => void download(`/Privacy/ClientCopyPdf/${clientId}`, `client-${number}-copy.pdf`)}
            data-testid="privacy-copy-pdf"
          >
            {t('privacy.copyPdf')}
          </Button>
        </Space>
      </Card>
      <Card size="small" title={t('privacy.eraseTitle')}>
        <Typography.Paragraph type="secondary">{t('privacy.eraseHelp')}</Typography.Paragraph>
        {done ? (
          <Alert
            type="success"
            showIcon
            message={t('privacy.erased')}
            description={
              <>
                <div>
                  {t('privacy.pseudonymised')}: {tables(done.pseudonymised)}
                </div>
                <div>
                  {t('privacy.deleted')}: {tables(done.deleted)}
                </div>
                <div>
                  {t('privacy.kept')}: {tables(done.kept)}
                </div>
              </>
            }
          />
        ) : (
          <Button danger icon={<DeleteOutlined />} onClick={() => setOpen(true)} data-testid="privacy-erase">
            {t('privacy.erase')}
          </Button>
        )}
      </Card>
      <Card size="small" title={t('privacy.whoTitle')}>
        <Table<DataAccessRow>
          size="small"
          rowKey={(r) => `${r.at}-${r.userId}-${r.kind}-${r.subject}`}
          loading={access.isPending}
          dataSource={access.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          scroll={{ x: true }}
          columns={[
            { key: 'at', title: t('privacy.at'), render: (_, r) => fmt.dateTime(r.at) },
            { key: 'user', title: t('privacy.user'), dataIndex: 'userName' },
            { key: 'kind', title: t('privacy.kind'), render: (_, r) => t(codeI18nKey('personalDataKind', r.kind)) },
            { key: 'subject', title: t('privacy.subject'), dataIndex: 'subject', responsive: ['md'] },
            { key: 'ip', title: t('privacy.ip'), dataIndex: 'ip', responsive: ['md'] },
          ]}
        />
      </Card>
      <Modal
        open={open}
        title={t('privacy.eraseConfirmTitle')}
        okText={t('privacy.erase')}
        okButtonProps={{ danger: true, disabled: typed == null, loading: erase.isPending }}
        onOk={() => void confirm()}
        onCancel={() => setOpen(false)}
      >
        <Typography.Paragraph>{t('privacy.eraseConfirm', { number })}</Typography.Paragraph>
        <InputNumber
          min={1}
          value={typed}
          onChange={(v) => setTyped(v)}
          aria-label={t('privacy.typeNumber')}
          placeholder={t('privacy.typeNumber')}
          style={{ width: 200 }}
          data-testid="privacy-erase-number"
        />
      </Modal>
    </Space>
  );
}

/** The client page's tab (after her history and family), for the security officer only. */
export const privacyClientTab: ClientTab = {
  key: 'privacy',
  labelKey: 'privacy.tab',
  order: 95,
  access: { flag: 'roleSecurityOfficer' },
  render: (ctx) => <PrivacyTab clientId={ctx.clientId} number={ctx.full.client.number} />,
};
