/** Console actions the browser tests share, written the way a user performs them. */
import type { Phrases } from '@umbo/contracts/phrases/types';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export type TabCommand = 'close_current' | 'close_right' | 'close_left' | 'close_all';

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(password);
  await page.locator('[data-testid=login-submit]').click();
}

/** Waits for the signed-in shell: the menu and the top bar's user name (from user.do). */
export async function waitForShell(page: Page): Promise<void> {
  await page.locator('[data-testid=nav-menu]').waitFor();
  await expect.poll(() => page.locator('[data-testid=user-name]').textContent()).not.toBe('');
}

export async function menuLabels(page: Page): Promise<string[]> {
  const labels = await page.locator('[data-testid=nav-menu] .ant-menu-title-content').allTextContents();
  return labels.map((s) => s.trim()).filter(Boolean);
}

export async function clickMenu(page: Page, label: string): Promise<void> {
  await page.locator('[data-testid=nav-menu]').getByRole('link', { name: label, exact: true }).click();
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
  await page.locator('[data-testid=tab-actions]').click();
  await page.getByRole('menuitem', { name: phrases.shell[command], exact: true }).click();
}

/** Runs a tab command from a tab's own context menu (right click). */
export async function tabContextCommand(page: Page, phrases: Phrases, tabLabel: string, command: TabCommand): Promise<void> {
  await page.locator('[data-testid=multi-tab] [data-tab-key]').filter({ hasText: tabLabel }).click({ button: 'right' });
  await page.getByRole('menuitem', { name: phrases.shell[command], exact: true }).click();
}

/** Waits for an antd message with exactly this text, then lets it go. */
export async function expectMessage(page: Page, text: string): Promise<void> {
  const notice = page.locator('.ant-message-notice').filter({ hasText: text });
  await notice.first().waitFor({ state: 'visible', timeout: 10_000 });
}

export async function chooseLanguage(page: Page, label: string): Promise<void> {
  await page.locator('[data-testid=language-switcher]').click();
  await page.getByRole('menuitem', { name: label }).click();
}
