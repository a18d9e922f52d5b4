/**
 * Third-party tools the tests run. kubectl is part of the machine (and CI installs it), so a test
 * that needs it runs in CI whatever; kpt is optional and its test is skipped where it is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const runs = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

export const hasKubectl = runs('kubectl', ['version', '--client']);
/** Skip a kubectl test only outside CI, where a missing kubectl is a broken machine. */
export const withoutKubectl = !hasKubectl && process.env.CI !== 'true';
export const hasKpt = runs('kpt', ['version']);

/** Debian's chromium, never a downloaded browser; skip a browser test only outside CI, which installs it. */
const CHROMIUM = '/usr/bin/chromium';
export const withoutChromium = !existsSync(CHROMIUM) && process.env.CI !== 'true';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
