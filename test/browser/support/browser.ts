import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { TEST_PASSWORD } from '../../platform/support/users-fixtures.js';

/**
 * Debian's Chromium (`apt-get install chromium`; .ci/run installs it when missing): playwright-core
 * drives it, and downloads no browser of its own. /usr/bin/chromium is Debian's wrapper script;
 * the binary is beside its libraries in /usr/lib/chromium. CHROMIUM_PATH names another.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));

/**
 * Why browser tests cannot run here, or undefined when they can. In CI they must: there a
 * missing Chromium fails the test instead of skipping it.
 */
export function browserUnavailable(): string | undefined {
  if (CHROMIUM_PATH && existsSync(CHROMIUM_PATH)) return undefined;
  if (process.env.CI) return undefined;
  return 'no Chromium: apt-get install chromium (or set CHROMIUM_PATH)';
}

/**
 * Playwright's own `--disable-features` list (playwright-core 1.65). Chromium honours only the last
 * `--disable-features` switch, so ours must restate Playwright's to keep it; `chromium-launch.e2e`
 * fails when Playwright's list and this one part.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Work a headless test never uses, and that costs CPU for every context (each is a window of its
 * own in Chromium's headless mode): the address bar's two popups are web pages, each window loads
 * them in a renderer process of its own; the spare renderer is started ahead for the next
 * navigation of a context that the test is about to close.
 */
export const TEST_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'];

export function launchChromium(): Promise<Browser> {
  if (!CHROMIUM_PATH) throw new Error('no Chromium found: apt-get install chromium, or set CHROMIUM_PATH');
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      // CI and the dev machines run tests as root, where Chromium's sandbox cannot start.
      '--no-sandbox',
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...TEST_DISABLED_FEATURES].join(',')}`,
    ],
    headless: true,
  });
}

let shared: Promise<Browser> | undefined;

/**
 * The process's one Chromium, launched on first use: the spec files of a group share a process
 * (scripts/run-tests.mjs) and a launch costs more CPU than most tests. Tests stay apart by their
 * contexts (inFreshContext). A browser that went away is replaced.
 */
export async function sharedBrowser(): Promise<Browser> {
  const current = await shared?.catch(() => undefined);
  if (current?.isConnected()) return current;
  shared = launchChromium();
  return shared;
}

// At the top level of the process (not of a spec file): after the last test of the group, or of
// a file run alone, so that no Chromium outlives its tests and the process can exit.
after(async () => {
  await (await shared?.catch(() => undefined))?.close();
});

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/**
 * Runs axe-core in the page (WCAG 2.x A and AA rules and axe's best practices) and returns its
 * violations. The source goes in through the DevTools protocol, which the pages' CSP (no
 * scripts) does not govern.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<any> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      // Every rule still runs on every node; axe only skips building the passes' and other
      // results' details, which nobody reads (a third of a run's CPU).
      resultTypes: ['violations'],
    });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

/** The serious and critical ones: what the pages must not have. */
export const seriousViolations = (violations: AxeViolation[]): AxeViolation[] =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');

/** Fails when axe-core finds a serious or critical violation on the page as it is now. */
export async function assertAccessible(page: Page): Promise<void> {
  assert.deepEqual(
    seriousViolations(await axeViolations(page)),
    [],
    `${page.url()}: no serious or critical axe-core violations`,
  );
}

export interface PageOptions {
  javaScriptEnabled?: boolean;
  viewport?: { width: number; height: number };
}

/**
 * Runs `run` on a page of a fresh context of the process's one browser (no cookie of another
 * test); any Content-Security-Policy refusal the page logs fails the test.
 */
export async function inFreshContext(
  run: (page: Page, context: BrowserContext) => Promise<void>,
  options: PageOptions = {},
): Promise<void> {
  const context = await (await sharedBrowser()).newContext(options);
  const refusals: string[] = [];
  try {
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
    });
    await run(page, context);
    assert.deepEqual(refusals, [], 'the pages keep to their own Content-Security-Policy');
  } finally {
    await context.close();
  }
}

/** Signs in through the form on the way to `next`, and waits until the browser is back there. */
export async function signIn(
  page: Page,
  baseUrl: string,
  email: string,
  next: string,
  password = TEST_PASSWORD,
): Promise<void> {
  await page.goto(`${baseUrl}${next}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
}
