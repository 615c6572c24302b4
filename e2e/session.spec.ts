import { expect, test } from './fixtures';

const LINK = '/login?userName=admin&password=demo1234&externalClubId=1001';

test('the login link with all three parameters signs in directly, and logout clears the session', async ({ page }) => {
  await page.goto(LINK);
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await page.evaluate(() => localStorage.getItem('venue.token'))).toBeTruthy();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login/);
  const left = await page.evaluate(() => [
    localStorage.getItem('venue.token'),
    localStorage.getItem('venue.expiresAt'),
    localStorage.getItem('venue.club'),
  ]);
  expect(left).toEqual([null, null, null]);
});

test('a session whose expiry has passed goes back to login, which says the session ended', async ({ page }) => {
  await page.goto(LINK);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.evaluate(() => localStorage.setItem('venue.expiresAt', String(Date.now() - 1000)));
  await page.goto('/management/clients');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId('login-expired')).toContainText('פג תוקף ההתחברות');
});

test('a token the server refuses ends the session with the same message; signing out by choice shows none', async ({
  page,
}) => {
  await page.goto(LINK);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The dashboard's own calls first (with the demo's year of money they take a moment): one of them
  // answered with the bad token would end the session before the click below.
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => localStorage.setItem('venue.token', 'not-a-token'));
  // On a busy machine a call of the dashboard can still be on its way after networkidle, meet the bad
  // token first and end the session before the click (a CI run saw the link detached for 90 s): either
  // way the session ends, with the message, which is what is checked below.
  if (!/\/login/.test(page.url()))
    await page
      .getByTestId('nav-clients')
      .click({ timeout: 15_000 })
      .catch(() => undefined);
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId('login-expired')).toBeVisible();

  await page.goto(LINK);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId('login-username')).toBeVisible();
  await expect(page.getByTestId('login-expired')).toHaveCount(0);
});

test('signing out ends the session on the server: the token it had is refused at once', async ({ page }) => {
  await page.goto(LINK);
  await expect(page).toHaveURL(/\/dashboard$/);
  const token = await page.evaluate(() => localStorage.getItem('venue.token'));
  const current = () =>
    page.request.get('/api/Account/GetCurrent', {
      headers: { authorization: `Bearer ${token}`, clubExternalId: '1001' },
    });
  expect((await current()).status()).toBe(200);
  const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/Account/Logout'));
  await page.getByTestId('logout').click();
  expect((await loggedOut).status()).toBe(200);
  await expect(page).toHaveURL(/\/login/);
  expect((await current()).status()).toBe(401);
});

test('no input for the idle timeout signs out, on the server too, and the sign-in page says why', async ({ page }) => {
  await page.goto(LINK);
  await expect(page).toHaveURL(/\/dashboard$/);
  const token = await page.evaluate(() => localStorage.getItem('venue.token'));
  expect(await page.evaluate(() => localStorage.getItem('venue.idleSeconds'))).toBe('1800');
  // The last input in any tab was 31 minutes ago (the tabs share it in localStorage).
  await page.evaluate(() => localStorage.setItem('venue.lastActivity', String(Date.now() - 31 * 60_000)));
  await expect(page).toHaveURL(/\/login/, { timeout: 20_000 });
  await expect(page.getByTestId('login-idle')).toContainText('נותקת מהמערכת לאחר זמן ללא פעילות');
  const res = await page.request.get('/api/Account/GetCurrent', {
    headers: { authorization: `Bearer ${token}`, clubExternalId: '1001' },
  });
  expect(res.status()).toBe(401);
});

test('a session ended elsewhere closes the console’s live socket, and the console goes to sign-in by itself', async ({
  page,
}) => {
  const socket = page.waitForEvent('websocket', (ws) => ws.url().endsWith('/api/live'));
  await page.goto(LINK);
  await expect(page).toHaveURL(/\/dashboard$/);
  const live = await socket;
  await page.waitForLoadState('networkidle');
  const token = await page.evaluate(() => localStorage.getItem('venue.token'));
  const closed = live.waitForEvent('close');
  // Signed out from somewhere else with the same token (as a disabled user or club, a password change would):
  // no click in this page; its live socket is closed by the server (4401) and the console follows.
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const out = await page.request.post('/api/Account/Logout', {
    headers: { authorization: `Bearer ${token}`, 'x-xsrf-token': xsrf },
  });
  expect(out.status()).toBe(200);
  await closed;
  await expect(page).toHaveURL(/\/login/, { timeout: 10_000 });
  await expect(page.getByTestId('login-expired')).toBeVisible();
});

test('wrong credentials show the seed message in Hebrew and change nothing', async ({ page }) => {
  await page.goto('/login?userName=admin&externalClubId=1001');
  await expect(page.getByTestId('login-username')).toHaveValue('admin');
  await page.getByTestId('login-password').fill('wrong-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toContainText('שם משתמש או סיסמה שגויים');
  await expect(page).toHaveURL(/\/login/);
});

test('the phone layout opens the navigation from a drawer, right to left', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(LINK);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByTestId('nav-toggle').click();
  await page.getByTestId('nav-entranceReport').click();
  await expect(page).toHaveURL(/app-entranceReport$/);
  await expect(page.getByTestId('report-table')).toBeVisible();
});
