import { Button } from 'antd';
import { useLanguage, useSetLanguage } from '../../platform/i18n/LocaleProvider';

/** The button that switches to the other language (its name in that language); on the sign-in page and in the header. */
export function LanguageSwitch() {
  const lang = useLanguage();
  const setLanguage = useSetLanguage();
  const other = lang === 'he' ? 'en' : 'he';
  return (
    <Button
      size="small"
      data-testid="lang-switch"
      lang={other}
      onClick={() => setLanguage(other)}
      aria-label={other === 'en' ? 'Switch to English' : 'מעבר לעברית'}
    >
      {other === 'en' ? 'English' : 'עברית'}
    </Button>
  );
}
