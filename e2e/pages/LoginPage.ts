import type { Page } from '@playwright/test';

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
