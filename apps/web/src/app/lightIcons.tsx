import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import ExclamationCircleFilled from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import ShopOutlined from '@ant-design/icons-svg/es/asn/ShopOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';

export {
  CloseCircleFilled as CloseCircleFilledIcon,
  ExclamationCircleFilled as ExclamationCircleFilledIcon,
  EyeInvisibleOutlined as EyeInvisibleIcon,
  EyeOutlined as EyeIcon,
  LoadingOutlined as LoadingIcon,
  LockOutlined as LockIcon,
  ShopOutlined as ShopIcon,
  UserOutlined as UserIcon,
};

/**
 * One of antd's icons drawn from its SVG data (@ant-design/icons-svg) without
 * the icon components and their style engine: the same markup and size as
 * `@ant-design/icons`, for the pages that load before antd (the sign-in page,
 * the error screen outside the signed-in frame). Decorative (aria-hidden).
 */
export function LightIcon({ icon, spin }: { icon: IconDefinition; spin?: boolean }) {
  if (typeof icon.icon === 'function') return null;
  const { attrs, children = [] } = icon.icon;
  return (
    <span className={`lt-icon${spin ? ' lt-icon-spin' : ''}`} aria-hidden="true">
      <svg
        viewBox={attrs.viewBox}
        width="1em"
        height="1em"
        fill="currentColor"
        fillRule={attrs['fill-rule'] === 'evenodd' ? 'evenodd' : undefined}
        focusable="false"
      >
        {children.map((c, i) => (
          <path key={i} d={c.attrs.d} />
        ))}
      </svg>
    </span>
  );
}
