/** Console actions the browser tests share, written the way a user performs them. */
import path from 'node:path';
import type { Phrases } from '@umbo/contracts/phrases/types';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { root, shotsDir } from './harness';

export type TabCommand = 'close_current' | 'close_right' | 'close_left' | 'close_all';

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(password);
  await page.locator('[data-testid=login-submit]').click();
}

/**
 * Fills and sends the console's sign-in form of an in-process server whose realm shows the image
 * captcha from the start (SPEC §5 'always'): the answer is read the way the server made it. What
 * the page shows next (the shell, an error, the OTP step, a forced password) is the caller's.
 */
export async function submitSignInWithCaptcha(page: Page, username: string, password: string, captchaAnswer: (imageSrc: string) => string): Promise<void> {
  await page.goto('/user/loginSSO');
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(password);
  const image = page.locator('[data-testid=captcha-image] img');
  await expect.poll(async () => (await image.getAttribute('src')) ?? '').toMatch(/^data:image\/png;base64,/);
  await page.locator('#login-captcha').fill(captchaAnswer((await image.getAttribute('src'))!));
  await page.locator('[data-testid=login-submit]').click();
}

/** Signs in through the captcha form (see submitSignInWithCaptcha) and waits for the console's shell. */
export async function signInWithCaptcha(page: Page, username: string, password: string, captchaAnswer: (imageSrc: string) => string): Promise<void> {
  await submitSignInWithCaptcha(page, username, password, captchaAnswer);
  await waitForShell(page);
}

/**
 * Waits for the signed-in shell: the menu and the top bar's user name (from user.do). When the
 * shell does not come, the error says what the page showed instead (address, alerts, field
 * errors, a screenshot): CI keeps only the tail of a run, and a bare timeout told nothing.
 */
export async function waitForShell(page: Page): Promise<void> {
  try {
    await page.locator('[data-testid=nav-menu]').waitFor();
  } catch (err) {
    throw new Error(`the signed-in shell did not appear: ${await describePage(page, 'shell-missing')}`, { cause: err });
  }
  await expect.poll(() => page.locator('[data-testid=user-name]').textContent()).not.toBe('');
}

/** What a person would see on the page: its address, alerts and field errors; saves a screenshot. */
export async function describePage(page: Page, name: string): Promise<string> {
  const seen = await page
    .evaluate(() => {
      const texts = (selector: string) => [...document.querySelectorAll(selector)].map((el) => (el as HTMLElement).innerText.trim()).filter(Boolean);
      return {
        url: location.pathname + location.search,
        alerts: texts('[role=alert], [role=status], .ant-message-notice, .ant-notification-notice'),
        text: document.body.innerText.replace(/\s+/g, ' ').slice(0, 300),
      };
    })
    .catch((e: unknown) => ({ url: page.url(), alerts: [], text: `(page not readable: ${String(e)})` }));
  const file = path.join(shotsDir, `failed-${name}-${Date.now()}.png`);
  await page.screenshot({ path: file }).catch(() => undefined);
  return `at ${seen.url}; alerts ${JSON.stringify(seen.alerts)}; page text "${seen.text}"; screenshot ${path.relative(root, file)}`;
}

/**
 * Waits until no antd motion (rc-motion's -appear/-enter/-leave classes) is running. A popup
 * still sliding in, or a dialog giving focus back on its way out, can scroll or move what the
 * next click aims at; a person waits for the screen to settle, and so does the test.
 */
export async function settle(page: Page): Promise<void> {
  // Only motions on screen count, and the wait is bounded: an element hidden mid-motion never
  // gets its transitionend, keeps its -leave class and once held a CI run for 30 s. After 5 s
  // the test goes on and its next step's own checks decide.
  await page
    .waitForFunction(
      () => ![...document.querySelectorAll('[class*="-appear"], [class*="-enter"], [class*="-leave"]')].some((el) => el.getClientRects().length > 0),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
}

/** Opens the top bar's account menu and waits for it to stand still. */
export async function openUserMenu(page: Page): Promise<void> {
  await settle(page);
  await page.locator('[data-testid=user-menu]').click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').waitFor();
  await settle(page);
}

/** Presses OK in the open confirmation (antd Modal.confirm) once nothing moves any more. */
export async function confirmOk(page: Page): Promise<void> {
  await settle(page);
  await page.locator('.ant-modal-confirm .ant-modal-confirm-btns .ant-btn-primary').click();
}

/** Logout from the account menu up to the confirmation (SPEC §4), which is left open. */
export async function askLogout(page: Page, phrases: Phrases): Promise<void> {
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: phrases.shell.logout }).click();
  await page.locator('.ant-modal-confirm').getByText(phrases.shell.logout_confirm).waitFor();
  await settle(page);
}

export async function menuLabels(page: Page): Promise<string[]> {
  const labels = await page.locator('[data-testid=nav-menu] .ant-menu-title-content').allTextContents();
  return labels.map((s) => s.trim()).filter(Boolean);
}

export async function clickMenu(page: Page, label: string): Promise<void> {
  await page.locator('[data-testid=nav-menu]').getByRole('link', { name: label, exact: true }).click();
}

/** Opens a screen from the menu and waits until its tab is the active one (the screen may load lazily). */
export async function openFromMenu(page: Page, label: string): Promise<void> {
  await clickMenu(page, label);
  await expect.poll(() => activeTab(page)).toBe(label);
}

export async function tabLabels(page: Page): Promise<string[]> {
  const labels = await page.locator('[data-testid=multi-tab] .ant-tabs-tab [data-tab-key]').allTextContents();
  return labels.map((s) => s.trim());
}

export async function activeTab(page: Page): Promise<string> {
  return ((await page.locator('[data-testid=multi-tab] .ant-tabs-tab-active [data-tab-key]').textContent()) ?? '').trim();
}

export async function clickTab(page: Page, label: string): Promise<void> {
  await page.locator('[data-testid=multi-tab] .ant-tabs-tab').filter({ hasText: label }).click();
  await expect.poll(() => activeTab(page)).toBe(label);
}

/** Runs a tab command from the tab bar's menu (it acts on the active tab). */
export async function tabCommand(page: Page, phrases: Phrases, command: TabCommand): Promise<void> {
  await settle(page);
  await page.locator('[data-testid=tab-actions]').click();
  await settle(page);
  await page.getByRole('menuitem', { name: phrases.shell[command], exact: true }).click();
}

/** Runs a tab command from a tab's own context menu (right click). */
export async function tabContextCommand(page: Page, phrases: Phrases, tabLabel: string, command: TabCommand): Promise<void> {
  await page.locator('[data-testid=multi-tab] [data-tab-key]').filter({ hasText: tabLabel }).click({ button: 'right' });
  await settle(page);
  await page.getByRole('menuitem', { name: phrases.shell[command], exact: true }).click();
}

/** Waits for an antd message with exactly this text, then lets it go. */
export async function expectMessage(page: Page, text: string): Promise<void> {
  const notice = page.locator('.ant-message-notice').filter({ hasText: text });
  await notice.first().waitFor({ state: 'visible', timeout: 10_000 });
}

export async function chooseLanguage(page: Page, label: string): Promise<void> {
  await settle(page);
  await page.locator('[data-testid=language-switcher]').click();
  await settle(page);
  await page.getByRole('menuitem', { name: label }).click();
}
