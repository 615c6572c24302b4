import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError } from '../../platform/api/apiClient';
import { IMPORT_COLUMNS, IMPORT_MAX_BYTES, type ImportResult, type ImportRowError } from '@venue/domain';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { errorText, validationText } from '../../shared/errors';
import { CLIENTS_KEY, downloadImportSample, importClients } from './useClients';
import { UploadError } from '../../shared/upload';
import { useToast } from '../../shared/toast/ToastProvider';

/** Spreadsheet files the import reads (the server decides by content: apps/server/src/lib/sheet-read.ts). */
const EXTENSIONS = ['.xlsx', '.xls', '.ods', '.csv', '.txt'] as const;
const ACCEPT = [
  ...EXTENSIONS,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'application/vnd.oasis.opendocument.spreadsheet',
  'text/csv',
].join(',');

/** The file's extension when it is not one the import reads (".pdf"), else null. */
export function wrongExtension(name: string): string | null {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null; // no extension: let the server look at the content
  const ext = name.slice(dot).toLowerCase();
  return (EXTENSIONS as readonly string[]).includes(ext) ? null : ext;
}

/** Why a chosen file cannot be sent (another kind of file, too large), or null. */
function chosenFileProblem(t: TFunction, f: File): string | null {
  const ext = wrongExtension(f.name);
  if (ext) return t('clients.importWrongType.extension', { ext });
  if (f.size > IMPORT_MAX_BYTES) return t('clients.importTooLarge', { mb: IMPORT_MAX_BYTES / 1024 / 1024 });
  return null;
}

/**
 * The message of a refused file: what the server found it to be (UNSUPPORTED_FILE_TYPE's detail),
 * where a CSV's quoting breaks (CSV_MALFORMED {reason, row, column}), else the error's text.
 */
export function importErrorText(t: TFunction, e: unknown): string {
  // An upload's answer keeps its details as sent (UploadError.rawDetails).
  const sent = e instanceof UploadError ? e.rawDetails : e instanceof ApiError ? e.details : undefined;
  if (e instanceof ApiError && e.code === 'UNSUPPORTED_FILE_TYPE') {
    const list = Array.isArray(sent) ? (sent as { path?: unknown; message?: unknown }[]) : [];
    const what = list.find((d) => d.path === 'file')?.message;
    return t([`clients.importWrongType.${String(what)}`, 'clients.importWrongType.fileNotSpreadsheet']);
  }
  if (e instanceof ApiError && e.code === 'CSV_MALFORMED' && sent && typeof sent === 'object') {
    const { reason, row, column } = sent as { reason?: unknown; row?: unknown; column?: unknown };
    if (typeof row === 'number' && typeof column === 'number') {
      return t([`clients.importCsv.${String(reason)}`, 'clients.importCsv.malformed'], { row, column });
    }
  }
  return errorText(t, e);
}

/**
 * Import clients from .xlsx, .xls, .ods or CSV (UTF-8 or Windows-1255; seed 001 §2, §5): choose a file, see a
 * preview with every row-level error before anything is written, then import
 * all rows or none. "A file must be chosen" when none is; a file that is no
 * spreadsheet is named as such (a PDF, an image, …), not as "choose a PDF".
 */
export function ImportClientsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const message = useToast();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<number | null>(null);

  const reset = () => {
    setFile(null);
    setPreview(null);
    setError(null);
    setDone(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  /** Checks the file (dry run) or imports it: all rows or none. */
  const run = async (dryRun: boolean) => {
    if (!file) {
      setError(t('clients.importFileRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await importClients(file, dryRun);
      if (dryRun) setPreview(res);
      else if (res.errors.length > 0) {
        setPreview({ ...res, rows: preview?.rows ?? res.rows, sample: preview?.sample ?? res.sample });
      } else {
        setDone(res.created);
        message.success(t('clients.importDone', { count: res.created }));
        void qc.invalidateQueries({ queryKey: CLIENTS_KEY });
      }
    } catch (e) {
      setError(importErrorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const canImport = preview != null && preview.errors.length === 0 && preview.rows > 0 && done == null;

  return (
    <Modal
      open={open}
      onCancel={close}
      title={t('clients.importTitle')}
      width={900}
      destroyOnHidden
      footer={
        <Space wrap>
          <Button onClick={close}>{done != null ? t('common.close') : t('common.cancel')}</Button>
          {done == null && (
            <Button onClick={() => void run(true)} loading={busy && !canImport} data-testid="import-preview">
              {t('clients.importCheck')}
            </Button>
          )}
          {done == null && (
            <Button
              type="primary"
              disabled={!canImport}
              loading={busy && canImport}
              onClick={() => void run(false)}
              data-testid="import-commit"
            >
              {t('clients.importRun', { count: preview?.rows ?? 0 })}
            </Button>
          )}
        </Space>
      }
    >
      <Space orientation="vertical" style={{ inlineSize: '100%' }} size="middle">
        <Typography.Paragraph type="secondary" style={{ marginBlockEnd: 0 }}>
          {t('clients.importHelp')}
        </Typography.Paragraph>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => void downloadImportSample(lang).catch((e: unknown) => message.error(errorText(t, e)))}
          data-testid="import-sample"
        >
          {t('clients.importSample')}
        </Button>
        <Upload.Dragger
          accept={ACCEPT}
          multiple={false}
          maxCount={1}
          fileList={file ? [{ uid: 'f', name: file.name, status: 'done' }] : []}
          beforeUpload={(f) => {
            const problem = chosenFileProblem(t, f);
            if (problem) {
              setError(problem);
              return Upload.LIST_IGNORE;
            }
            setFile(f);
            setPreview(null);
            setDone(null);
            setError(null);
            return false;
          }}
          onRemove={() => reset()}
          data-testid="import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('clients.importChoose')}</p>
          <p className="ant-upload-hint">{t('clients.importFormats')}</p>
        </Upload.Dragger>
        {error && <Alert type="error" showIcon title={error} data-testid="import-error" />}
        {done != null && (
          <Alert type="success" showIcon title={t('clients.importDone', { count: done })} data-testid="import-done" />
        )}
        {preview && done == null && <ImportPreview preview={preview} />}
      </Space>
    </Modal>
  );
}

/** The check's result: ready or the row errors (row, column, translated problem), and the first rows as read. */
function ImportPreview({ preview }: { preview: ImportResult }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const columnTitle = (key: string) => {
    const c = IMPORT_COLUMNS.find((x) => x.key === key);
    return c ? c[lang] : key;
  };
  const sampleColumns = IMPORT_COLUMNS.map((c) => ({
    key: c.key,
    title: c[lang],
    dataIndex: c.key,
    render: (v: unknown) => (v == null ? '' : String(v)),
  }));

  return (
    <>
      {preview.errors.length > 0 ? (
        <Alert
          type="error"
          showIcon
          title={t('clients.importHasErrors', { count: preview.errors.length, rows: preview.rows })}
          description={t('clients.importFixFile')}
          data-testid="import-has-errors"
        />
      ) : (
        <Alert
          type="success"
          showIcon
          title={t('clients.importReady', { rows: preview.rows })}
          data-testid="import-ready"
        />
      )}
      {preview.errors.length > 0 && (
        <Table<ImportRowError>
          data-testid="import-errors"
          size="small"
          rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
          dataSource={preview.errors}
          pagination={preview.errors.length > 10 ? { pageSize: 10 } : false}
          scroll={{ x: 'max-content' }}
          columns={[
            { key: 'row', title: t('clients.importRow'), dataIndex: 'row', width: 80 },
            {
              key: 'field',
              title: t('clients.importField'),
              dataIndex: 'field',
              render: (f: string) => columnTitle(f),
            },
            {
              key: 'message',
              title: t('clients.importProblem'),
              dataIndex: 'message',
              render: (m: string) => validationText(t, m),
            },
          ]}
        />
      )}
      {preview.sample.length > 0 && (
        <>
          <Typography.Text strong>{t('clients.importPreview')}</Typography.Text>
          <Table
            data-testid="import-sample-rows"
            size="small"
            rowKey={(_, i) => String(i)}
            dataSource={preview.sample}
            columns={sampleColumns}
            pagination={false}
            scroll={{ x: 'max-content', y: 240 }}
          />
        </>
      )}
    </>
  );
}
