import { expect, test, type Page } from './fixtures';
import { SMTPServer } from 'smtp-server';
import { signInDemoAdmin as signIn } from './pages/LoginPage';

/**
 * Issue 18: the invoice e-mail settings (money settings, "Invoice e-mail" tab): the club's invoice
 * e-mail and SMTP server are set in the console, a bad port is refused with a translated message,
 * the password is never shown again, and "send test e-mail" reaches a local SMTP server (with a
 * login) run by this test. Screenshots in Hebrew and English at 1440 and 390 px go to E2E_SHOTS.
 */
const shot = async (page: Page, name: string) => {
  if (!process.env.E2E_SHOTS) return;
  await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
};

test('invoice e-mail settings: save, refuse a bad port, send a test e-mail through a local SMTP server', async ({
  page,
}) => {
  const received: string[] = [];
  const smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _s, cb) {
      if (auth.username === 'mailer' && auth.password === 'e2e-secret') cb(null, { user: auth.username });
      else cb(new Error('bad login'));
    },
    onData(stream, session, cb) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received.push(session.envelope.rcptTo.map((r) => r.address).join(','));
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  try {
    await signIn(page, 'he');
    await page.goto('/management/app-settings/money?tab=mail');
    const form = page.getByTestId('invoice-mail-form');
    await expect(form).toBeVisible();
    await form.getByLabel('דוא״ל לחשבוניות').fill('office@club.example');
    await form.getByLabel('שרת דואר (SMTP)').fill('127.0.0.1');
    await form.getByLabel('פורט').fill('70000');
    await form.getByLabel('שם משתמש').fill('mailer');
    await form.getByLabel('סיסמה').fill('e2e-secret');
    await form.getByRole('button', { name: 'שמירה' }).click();
    await expect(form.getByText('פורט בין 1 ל־65535')).toBeVisible();
    await form.getByLabel('פורט').fill(String(port));
    await form.getByRole('button', { name: 'שמירה' }).click();
    await expect(page.getByText('הגדרות הדואר נשמרו')).toBeVisible();
    await expect(form.getByText('שמורה סיסמה; השאירו ריק כדי לשמור עליה')).toBeVisible();
    await expect(form.getByLabel('סיסמה')).toHaveValue('');
    await page.getByTestId('mail-test').click();
    await expect(page.getByText('דוא״ל בדיקה נשלח אל office@club.example')).toBeVisible();
    expect(received).toEqual(['office@club.example']);
    await page.reload();
    await expect(page.getByTestId('invoice-mail-form').getByLabel('שרת דואר (SMTP)')).toHaveValue('127.0.0.1');
    await shot(page, 'invoice-mail-he-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByTestId('invoice-mail-form')).toBeVisible();
    await shot(page, 'invoice-mail-he-390');

    await page.evaluate(() => localStorage.setItem('venue.lang', 'en'));
    await page.addInitScript(() => localStorage.setItem('venue.lang', 'en'));
    await page.reload();
    await expect(page.getByTestId('invoice-mail-form').getByText('Invoice e-mail', { exact: true })).toBeVisible();
    await shot(page, 'invoice-mail-en-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await expect(page.getByTestId('invoice-mail-form')).toBeVisible();
    await shot(page, 'invoice-mail-en-1440');
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});
