/**
 * What every console screen must pass, at 1440 px and at phone width (issue 10):
 * - axe-core's WCAG 2.1 A/AA rules with no serious or critical violation;
 * - nothing pushed past the right edge (the page does not scroll sideways);
 * - no text squeezed to a character or two per line.
 * `checkScreen` runs all three at both widths and saves a screenshot of each.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from './harness';

const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

export const WIDTHS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe-core on the page as it is now. Injected through the DevTools protocol (page.evaluate),
 * which the page's CSP does not govern: nothing about the product is loosened for the test.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
}

export interface LayoutProblem {
  kind: 'overflow' | 'squeezed';
  what: string;
}

/** Sideways overflow of the page, and visible text elements squeezed to ≤ 2 characters a line. */
export async function layoutProblems(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(() => {
    const problems: { kind: 'overflow' | 'squeezed'; what: string }[] = [];
    const vw = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > vw + 1)
      problems.push({ kind: 'overflow', what: `page is ${document.documentElement.scrollWidth}px wide in a ${vw}px window` });
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(/\s+/).slice(0, 2).join('.')}` : ''}`;
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      // Only elements holding text of their own (not just children), several characters long.
      const own = Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (own.length < 4 || (/\s/.test(own) === false && own.length < 6)) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (el.closest('[aria-hidden="true"], .ant-tooltip, .ant-select-dropdown, svg')) continue;
      const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
      const lines = Math.round(rect.height / lineHeight);
      const fontSize = parseFloat(style.fontSize);
      // ≤ 2 characters a line: the box is about two glyphs wide and the text runs down it.
      if (lines >= 3 && rect.width < fontSize * 2.5 && own.length / lines <= 2.5)
        problems.push({ kind: 'squeezed', what: `${describe(el)} "${own.slice(0, 30)}" is ${Math.round(rect.width)}px wide over ${lines} lines` });
      if (rect.right > vw + 1 && style.position !== 'fixed' && !el.closest('.ant-table-content, .ant-table-body, [data-scrollable]')) {
        problems.push({ kind: 'overflow', what: `${describe(el)} "${own.slice(0, 30)}" ends at ${Math.round(rect.right)}px in a ${vw}px window` });
      }
    }
    return problems.slice(0, 20);
  });
}

/**
 * Waits until no antd message is on screen (they leave after 3 s): a check must not meet one
 * mid-fade — axe reads its fading text as low contrast (it failed CI once, at 390 px).
 */
async function messagesGone(page: Page): Promise<void> {
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 });
}

/**
 * The screen as shown now, at 1440 px and at 390 px: a screenshot of each, then axe and the
 * layout checks, once any message has left. `prepare` runs after each resize (e.g. to reopen
 * a dialog that closed).
 */
export async function checkScreen(page: Page, name: string, prepare?: () => Promise<void>): Promise<void> {
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    await prepare?.();
    await messagesGone(page);
    await page.waitForTimeout(300);
    await screenshot(page, `${name}-${label}`);
    expect(await layoutProblems(page), `${name} at ${size.width}px: layout`).toEqual([]);
    expect(await axeFindings(page), `${name} at ${size.width}px: axe (serious/critical)`).toEqual([]);
  }
  await page.setViewportSize(WIDTHS.desktop);
}
