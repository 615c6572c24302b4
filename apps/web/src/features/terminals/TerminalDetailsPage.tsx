import { useParams } from 'react-router';
import { Col, Result, Row, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/auth/useCan';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { ApiError } from '../../platform/api/apiClient';
import { errorText } from '../../shared/errors';
import { TerminalCashCard } from './TerminalCashCard';
import { TerminalHeader } from './TerminalHeader';
import { TerminalRemoteCard } from './TerminalRemoteCard';
import { TerminalScreenCard } from './TerminalScreenCard';
import { TerminalSettingsForm } from './TerminalSettingsForm';
import { useTerminal } from './useTerminals';

/**
 * /management/app-terminals-list/:terminalId — one terminal: every field of
 * seed 001 §3 in sections (general, gate & relays, cash & acceptors,
 * inventories), remote control (open gate, reboot, reload display, check for
 * updates, set door state), remote view (the terminal's screen, live), the
 * door state and connection live, connected
 * devices, cash box status and reset, delete and restore.
 */
export function TerminalDetailsPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const locale = lang === 'he' ? 'he-IL' : 'en-GB';
  const id = Number(useParams().terminalId);
  const allowed = useCan();
  const canEdit = allowed({ edit: 'terminals' });
  // Technician-only actions (seed 000 §6, seed 001 §6), by the one access policy.
  const isTechnician = allowed({ terminalAction: 'checkForUpdates' });
  const query = useTerminal(id);
  const term = query.data;

  if (!Number.isInteger(id) || id <= 0) return <Result status="404" title={t('errors.NOT_FOUND')} />;
  if (query.isPending) {
    return (
      <div className="center-block page-spinner">
        <Spin size="large" />
      </div>
    );
  }
  if (query.isError || !term) {
    return (
      <Result
        status={query.error instanceof ApiError && query.error.status === 404 ? '404' : 'error'}
        title={errorText(t, query.error)}
      />
    );
  }

  return (
    <>
      <TerminalHeader term={term} canEdit={canEdit} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          {/* Remote view: the client names of its last decision only to those who may control terminals. */}
          {canEdit && <TerminalScreenCard term={term} locale={locale} />}
          <TerminalRemoteCard term={term} canEdit={canEdit} isTechnician={isTechnician} />
          <TerminalCashCard term={term} canEdit={canEdit} locale={locale} />
        </Col>
        <Col xs={24} lg={14}>
          <TerminalSettingsForm term={term} disabled={!canEdit || term.deleted} locale={locale} />
        </Col>
      </Row>
    </>
  );
}
