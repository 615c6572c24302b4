import { useEffect } from 'react';
import { Col, DatePicker, Divider, Form, Input, Row, Select, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { AttendanceLogInput, type AttendanceLog, type AttendanceTimes } from '@venue/domain';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { rootOutcome } from '../../shared/forms/formErrors';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { useTerminalList } from '../terminals/useTerminals';
import { attendanceBody, attendanceFormValues, type AttendanceFormValues } from './attendanceForm';
import { useEmployees, useSaveAttendance } from './useAttendance';
import { useToast } from '../../shared/toast/ToastProvider';

const TIME_FORMAT = 'DD/MM/YYYY HH:mm';

/**
 * Add or correct an attendance record (seed 001 §3 "Attendance record",
 * §5 rules, checked by the shared schema here and again by the server). A
 * correction shows the original and every change (who, when, before, after).
 */
export function AttendanceDrawer({
  open,
  record,
  onClose,
}: {
  open: boolean;
  record: AttendanceLog | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const save = useSaveAttendance();
  const { form, onFinish, onFinishFailed, rootError, clearRootError, saving } = useSchemaForm({
    schema: AttendanceLogInput,
    toInput: attendanceBody,
    submit: (body) => save.mutateAsync({ id: record?.id ?? null, body }),
    onSaved: () => {
      message.success(t(record ? 'attendance.updated' : 'attendance.created'));
      onClose();
    },
    // Seed 001 §8: the attendance wording of a refused change.
    byCode: (e) => (e.code === 'NOT_AUTHORIZED' ? rootOutcome(t('attendance.notAuthorized')) : undefined),
  });

  useEffect(() => {
    if (!open) return;
    clearRootError();
    form.setFieldsValue(attendanceFormValues(record));
  }, [open, record, form, clearRootError]);

  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      width={520}
      title={record ? t('attendance.edit', { name: record.clientName }) : t('attendance.new')}
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
      saveTestId="attendance-save"
    >
      <Form<AttendanceFormValues>
        form={form}
        layout="vertical"
        onFinish={(v) => void onFinish(v)}
        onFinishFailed={onFinishFailed}
      >
        <AttendanceFields />
      </Form>
      {record && <History record={record} />}
    </FormDrawer>
  );
}

function AttendanceFields() {
  const { t } = useTranslation();
  const employees = useEmployees();
  const terminals = useTerminalList();
  const terminalOptions = (terminals.data?.items ?? []).map((x) => ({ value: x.id, label: x.name }));
  const notFuture = (d: dayjs.Dayjs) => d.isAfter(dayjs().endOf('day'));
  return (
    <Row gutter={12}>
      <Col xs={24}>
        <Form.Item name="clientId" label={t('attendance.employee')} required>
          <Select
            showSearch
            optionFilterProp="label"
            loading={employees.isPending}
            placeholder={t('attendance.chooseEmployee')}
            notFoundContent={t('attendance.noEmployees')}
            options={(employees.data ?? []).map((e) => ({ value: e.id, label: `${e.name} (${e.number})` }))}
            data-testid="attendance-employee"
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="entryAt" label={t('attendance.entryAt')}>
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format={TIME_FORMAT}
            disabledDate={notFuture}
            style={{ inlineSize: '100%' }}
            data-testid="attendance-entry"
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="entryTerminalId" label={t('attendance.entryTerminal')}>
          <Select allowClear options={terminalOptions} placeholder={t('attendance.console')} />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="exitAt" label={t('attendance.exitAt')}>
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format={TIME_FORMAT}
            disabledDate={notFuture}
            style={{ inlineSize: '100%' }}
            data-testid="attendance-exit"
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="exitTerminalId" label={t('attendance.exitTerminal')}>
          <Select allowClear options={terminalOptions} placeholder={t('attendance.console')} />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item name="comment" label={t('attendance.comment')}>
          <Input.TextArea rows={2} maxLength={500} showCount />
        </Form.Item>
      </Col>
    </Row>
  );
}

/** A time as the screen shows it, or a dash. */
export function showTime(iso: string | null): string {
  return iso ? dayjs(iso).format(TIME_FORMAT) : '—';
}

function timesText(t: (k: string) => string, x: AttendanceTimes): string {
  return `${t('attendance.entryAt')}: ${showTime(x.entryAt)} · ${t('attendance.exitAt')}: ${showTime(x.exitAt)}${
    x.comment ? ` · ${x.comment}` : ''
  }`;
}

/** The record as first written and every manual change (seed 001 §3 "modification info"). */
function History({ record }: { record: AttendanceLog }) {
  const { t } = useTranslation();
  if (!record.original) return null;
  return (
    <>
      <Divider titlePlacement="start">{t('attendance.history')}</Divider>
      <Typography.Paragraph type="secondary" data-testid="attendance-original">
        {t('attendance.original')}: <span className="ltr-value">{timesText(t, record.original)}</span>
      </Typography.Paragraph>
      <Timeline
        items={record.modifications.map((m) => ({
          children: (
            <span>
              {t('attendance.changedBy', { user: m.username, at: showTime(m.at) })}
              <br />
              <Typography.Text type="secondary" className="ltr-value">
                {timesText(t, m.before)} → {timesText(t, m.after)}
              </Typography.Text>
            </span>
          ),
        }))}
      />
    </>
  );
}
