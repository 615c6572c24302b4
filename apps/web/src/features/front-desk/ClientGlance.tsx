import { Alert, Avatar, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ClientStatus, EntranceState, EntranceStatus, Reason, type FrontDeskGlance } from '@venue/domain';
import { useClientFormat } from '../clients/clientFormat';
import { Fact, isolate, reasonKey } from './deskParts';
import { usePhoto } from './useFrontDesk';

/** States the open/closed tag already says in full ("Open now · Open" would repeat it). */
const PLAIN_STATES: readonly number[] = [EntranceState.Opened, EntranceState.Closed];

/**
 * The member at a glance (docs/front-desk.md "At a glance"): photo (the face enrolment image, if
 * any), name, number, group and whether it is open now at the desk's gate, subscription end,
 * balances, open debts, last entrance, the message to the client, and the gate's verdict.
 */
export function ClientGlance({ g }: { g: FrontDeskGlance }) {
  const { t } = useTranslation();
  const fmt = useClientFormat();
  const photo = usePhoto(g.client.id, g.client.hasPhoto);
  const name = `${g.client.firstName} ${g.client.lastName}`.trim();
  const v = g.verdict;
  return (
    <div className="desk-glance" data-testid="desk-glance">
      <div className="desk-identity">
        <Avatar
          size={88}
          shape="square"
          src={photo.data ?? undefined}
          icon={<UserOutlined />}
          alt={photo.data ? t('frontDesk.photoOf', { name }) : undefined}
          data-testid="desk-photo"
        />
        <div className="desk-identity-text">
          <Typography.Title level={3} className="desk-name" data-testid="desk-name">
            <span dir="auto">{name}</span>
          </Typography.Title>
          <div className="desk-tags">
            <Typography.Text type="secondary">#{g.client.number}</Typography.Text>
            {g.client.status !== ClientStatus.Active && <Tag color="red">{t('frontDesk.inactive')}</Tag>}
            {g.group ? (
              <Tag className="desk-group-tag" data-testid="desk-group">
                <span className="desk-swatch" style={{ background: g.group.color || '#bfbfbf' }} aria-hidden />
                <span dir="auto">{g.group.name}</span>
              </Tag>
            ) : (
              <Tag data-testid="desk-group">{t('frontDesk.noGroup')}</Tag>
            )}
            {v && v.state != null && (
              <Tag color={v.open ? 'green' : 'red'} data-testid="desk-open-now" data-open={v.open ? 'true' : 'false'}>
                {v.open ? t('frontDesk.openNow') : t('frontDesk.closedNow')}
                {!PLAIN_STATES.includes(v.state) && <> · {t(`entranceState.${v.state}`)}</>}
              </Tag>
            )}
          </div>
        </div>
      </div>
      {g.client.messageToClient && (
        <Alert
          type="info"
          showIcon
          className="desk-gap"
          data-testid="desk-message"
          title={t('frontDesk.messageToClient')}
          description={<span dir="auto">{g.client.messageToClient}</span>}
        />
      )}
      <dl className="desk-facts">
        <Fact label={t('frontDesk.subscriptionEnd')} testId="desk-subscription">
          {g.subscription.end ? fmt.date(g.subscription.end) : t('frontDesk.noSubscription')}{' '}
          {g.subscription.end && (
            <Tag color={g.subscription.valid ? 'green' : 'orange'}>
              {t(g.subscription.valid ? 'frontDesk.valid' : 'frontDesk.expired')}
            </Tag>
          )}
        </Fact>
        <Fact label={t('frontDesk.balance')} testId="desk-balance">
          {fmt.money(g.balance)}
          {g.tempBalance > 0 && (
            <Typography.Text type="secondary">
              {' '}
              · {t('frontDesk.tempBalance')} {fmt.money(g.tempBalance)}
            </Typography.Text>
          )}
          {g.bonusEntries > 0 && (
            <Typography.Text type="secondary"> · {t('frontDesk.bonus', { count: g.bonusEntries })}</Typography.Text>
          )}
        </Fact>
        <Fact label={t('frontDesk.debts')} testId="desk-debts">
          {g.debts.open > 0 ? <span className="negative">{fmt.money(g.debts.open)}</span> : t('frontDesk.noDebts')}
        </Fact>
        <Fact label={t('frontDesk.lastEntrance')} testId="desk-last">
          {g.lastEntrance ? (
            <>
              {fmt.dateTime(g.lastEntrance.at)}
              {/* The separator outside the name's own direction: a Hebrew name would carry it to its far end. */}
              {g.lastEntrance.terminalName && (
                <>
                  {' · '}
                  <span dir="auto">{g.lastEntrance.terminalName}</span>
                </>
              )}
            </>
          ) : (
            t('frontDesk.never')
          )}
        </Fact>
      </dl>
      <Verdict g={g} />
    </div>
  );
}

/**
 * What the gate decides now at the desk's gate: admits (and how), refuses (why), or asks for a
 * payment that a sale of one entrance settles — a refusal a sale would not cure is said plainly
 * (here only: the actions below do not repeat it).
 */
function Verdict({ g }: { g: FrontDeskGlance }) {
  const { t } = useTranslation();
  const fmt = useClientFormat();
  const v = g.verdict;
  if (!v) return null;
  const reason = t(`reason.${reasonKey(v.decision.reason)}`);
  if (v.decision.approved) {
    return (
      <Alert
        type="success"
        showIcon
        className="desk-verdict"
        data-testid="desk-verdict"
        data-verdict="admits"
        title={t('frontDesk.verdictAdmits', { gate: isolate(v.terminalName) })}
        description={reason}
      />
    );
  }
  if (v.sale.outcome === 'admits') {
    return (
      <Alert
        type="warning"
        showIcon
        className="desk-verdict"
        data-testid="desk-verdict"
        data-verdict="pay"
        title={t('frontDesk.verdictPay', { gate: isolate(v.terminalName) })}
        description={
          <>
            {reason} · {t('frontDesk.entrancePrice')} {fmt.money(v.price)}
          </>
        }
      />
    );
  }
  const saleReason = t(`reason.${reasonKey(v.sale.decision.reason)}`);
  // Right after an admission the gate refuses a second one as a double entry: said calmly, not as a fault.
  const justIn = v.decision.reason === Reason.DoubleEntry;
  return (
    <Alert
      type={justIn ? 'info' : 'error'}
      showIcon
      className="desk-verdict"
      data-testid="desk-verdict"
      data-verdict="refuses"
      title={t('frontDesk.verdictRefuses', { gate: isolate(v.terminalName), reason })}
      description={
        justIn ? (
          t('frontDesk.justEntered')
        ) : v.decision.status !== EntranceStatus.TerminalNotApproved ? (
          <span data-testid="desk-no-sale">{t('frontDesk.noSaleHelps', { reason: saleReason })}</span>
        ) : undefined
      }
    />
  );
}
