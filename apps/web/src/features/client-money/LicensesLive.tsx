import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App } from 'antd';
import { LicenseRequestStatus } from '@venue/domain';
import { SESSION_QUERY_KEY } from '../../platform/auth/AuthProvider';
import { useLiveMessages } from '../../platform/live/LiveProvider';
import { useToast } from '../../shared/toast/ToastProvider';

// In a file of its own: the signed-in frame mounts it on every screen, and the
// billing card beside it (LicenseBilling.tsx) needs antd's Table (issue 19 load speed).
/**
 * The operator answered one of the club's license requests or loaded licenses
 * (live feed `licenses`, docs/live-feed.md): the requests list, the license
 * count and the club (for the low-license toast) are read again, the user is
 * told, and the low-license toast is closed once licenses were loaded.
 */
export function LicensesLive() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const toast = useToast();
  const { notification } = App.useApp();
  useLiveMessages((m) => {
    if (m.type !== 'licenses') return;
    void qc.invalidateQueries({ queryKey: ['licenses'] });
    void qc.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    if (m.status == null || m.status === LicenseRequestStatus.ApprovedLoaded) {
      // AuthProvider's low-license toast (seed 000 §8).
      notification.destroy('low-licenses');
      toast.success(t('licenses.live.loaded'));
    } else {
      toast.info(t('licenses.live.changed', { status: t(`licenses.status.${m.status}`) }));
    }
  });
  return null;
}
