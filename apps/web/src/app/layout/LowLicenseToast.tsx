import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { KALA_CLUB_FROM, LOW_LICENSE_THRESHOLD } from '@venue/domain';
import { useAuth } from '../../platform/auth/AuthProvider';

/** The license purchase page (features/client-money/LicensesPage), where the low-license toast leads. */
const LICENSE_PURCHASE_ROUTE = '/management/app-settings/licenses';

/** The session whose club was last checked: the toast shows once per sign-in (and again after a reload). */
let warnedFor: string | null = null;

/**
 * Low-license toast on club load (seed 000 §8, §9): a club below
 * LOW_LICENSE_THRESHOLD licenses (Kala clubs excepted) is warned once per
 * session, top-centre for 10 seconds, with "buy more" leading to the purchase
 * page. Rendered by the signed-in frame (SignedInShell), inside antd's App.
 */
export function LowLicenseToast() {
  const { session, data } = useAuth();
  const { notification } = App.useApp();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const club = data?.club;

  useEffect(() => {
    if (!club || !session) return;
    if (warnedFor === session.token) return;
    warnedFor = session.token;
    if (club.externalClubId < KALA_CLUB_FROM && club.licancesAmount < LOW_LICENSE_THRESHOLD) {
      // Seed 000 §8: top-centre, 10 seconds (not the toast service's top-right 5 s); "buy more" leads to the purchase page.
      const key = 'low-licenses';
      notification.warning({
        key,
        title: t('license.lowTitle'),
        description: t('license.low'),
        placement: 'top',
        duration: 10,
        actions: (
          <Button
            type="link"
            size="small"
            data-testid="low-license-buy"
            onClick={() => {
              notification.destroy(key);
              void navigate(LICENSE_PURCHASE_ROUTE);
            }}
          >
            {t('license.buyMore')}
          </Button>
        ),
      });
    }
  }, [club, session, notification, t, navigate]);
  return null;
}
