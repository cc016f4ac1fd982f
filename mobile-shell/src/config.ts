//! The app's settings, from `shell.config.json`: the site it shows, its name, and which parts of
//! the page it shows natively (`cart`: its own cart badge; `header`: its own header).

import settings from '../shell.config.json';
import { originOf } from './bridge/navigation';

export interface ShellConfig {
  readonly siteUrl: string;
  /** The only origin the web view shows and hears messages from. */
  readonly origin: string;
  readonly appName: string;
  readonly provides: readonly string[];
}

export function readConfig(raw: { siteUrl: string; appName: string; provides: string[] }): ShellConfig {
  const origin = originOf(raw.siteUrl);
  if (origin === undefined) throw new Error(`shell.config.json: siteUrl must be an http(s) address, not ${raw.siteUrl}`);
  return { siteUrl: raw.siteUrl, origin, appName: raw.appName, provides: raw.provides.filter((part) => part === 'header' || part === 'cart') };
}

export const shellConfig: ShellConfig = readConfig(settings);
