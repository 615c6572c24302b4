import { expect, type Page } from '@playwright/test';

/** Page object of /login. */
export class LoginPage {
  constructor(private readonly page: Page) {}
  async open(): Promise<void> {
    await this.page.goto('/login');
  }
  async signIn(user: string, password: string, club: number): Promise<void> {
    await this.page.getByTestId('login-username').fill(user);
    await this.page.getByTestId('login-password').fill(password);
    await this.page.getByTestId('login-club').fill(String(club));
    await this.page.getByTestId('login-submit').click();
  }
}

/**
 * The terms of use (version 1, seed 001 §4) must be confirmed and signed once
 * per user: when the dialog is shown, tick, sign on the pad and submit.
 */
export async function confirmTermsIfAsked(page: Page): Promise<void> {
  const terms = page.getByTestId('terms-modal');
  if (!(await terms.isVisible().catch(() => false))) return;
  await page.getByTestId('terms-confirm').check();
  const box = (await page.getByTestId('signature-pad').boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 30);
  await page.mouse.down();
  await page.mouse.move(box.x + 160, box.y + 90, { steps: 8 });
  await page.mouse.up();
  await page.getByTestId('terms-submit').click();
  await expect(terms).toBeHidden();
}

/**
 * Signs the demo club's admin in by the login link, in `lang` (the stored
 * interface language), and confirms the terms when asked.
 */
export async function signInDemoAdmin(page: Page, lang: 'he' | 'en'): Promise<void> {
  await page.addInitScript((l) => localStorage.setItem('venue.lang', l), lang);
  await page.goto('/login?userName=admin&password=demo1234&externalClubId=1001');
  await page.getByTestId('side-nav').waitFor();
  await confirmTermsIfAsked(page);
}
