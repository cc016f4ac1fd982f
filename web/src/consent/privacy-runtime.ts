//! Starts the privacy and measurement features of a page: error reporting, the cookie banner
//! (when the server rendered one), the automatic page view, counted with cookies only when
//! consent allows, and the popup overlay (when rendered). Part of the common script, no React;
//! the banner's and the popup's behaviour are chunks fetched only by a page that shows them.

import { readPageContext } from '../runtime/page-context';
import { startErrorCapture } from '../analytics/error-capture';
import { startButtonCensus } from '../analytics/button-census';
import { startLogger, startPerformance } from '../analytics/measurement';
import { censusDisabledIn, recordPageView, viewerExclusion } from '../analytics/page-view';
import { POPUP_SELECTOR } from '../popup/popup-markup';
import type { PopupSettings } from '../popup/rules';
import { nativeAppConsent, type NativeAppMode } from '../native-app/detection';
import { BANNER_SELECTOR, CONSENT_EVENT, clearTrackingCookies, policyOf, removeAnsweredBanner } from './banner-markup';
import { currentConsent, trackingAllowed, type Consent, type ConsentPolicy } from './consent-state';

function gpcSignal(win: Window): boolean {
  return (win.navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}

/**
 * The policy of a page without a banner: nobody can be asked, so tracking follows the site's
 * restrictive flags alone (an OPT_IN_AND_OUT reading), still stopped by GPC or a stored decline.
 */
function policyWithoutBanner(settings: Record<string, unknown> | undefined): ConsentPolicy {
  return {
    acceptType: 'OPT_IN_AND_OUT',
    restrictive: settings?.['isRestrictiveCookiePolicyEnabled'] === true,
    absolute: settings?.['isRestrictiveCookiePolicyAbsolute'] === true,
  };
}

/**
 * The consent in force: the app's, when the page runs in an app that asked the visitor itself
 * (its banner is then removed, since the visitor has answered already), else the page's own.
 */
function consentFor(win: Window & typeof globalThis, nativeApp: NativeAppMode): Consent {
  const appConsent = nativeAppConsent(nativeApp);
  if (appConsent === undefined) return currentConsent(win.document, gpcSignal(win));
  win.document.querySelector(BANNER_SELECTOR)?.remove();
  return { kind: 'decided', choice: appConsent };
}

export function startPrivacy(win: Window & typeof globalThis, nativeApp: NativeAppMode = { kind: 'none' }): void {
  const doc = win.document;
  const context = readPageContext(doc);
  const reporter = startErrorCapture(win, context);
  // Performance records and log batches carry no visitor identifier and set no cookie, so they
  // run whatever the consent decision.
  startPerformance(win, reporter);
  const logger = startLogger(win);
  win.addEventListener(CONSENT_EVENT, (event) => logger.log('consent', (event as CustomEvent<unknown>).detail));
  const banner = doc.querySelector<HTMLElement>(BANNER_SELECTOR);
  const policy = banner === null ? policyWithoutBanner(context['cookieSettings'] as Record<string, unknown> | undefined) : policyOf(banner);
  const consent = consentFor(win, nativeApp);
  const shown = startBanner(win);
  const tracking = trackingAllowed(policy, consent);
  if (!tracking) clearTrackingCookies(win);
  recordPageView(win, context, tracking, nativeApp.kind !== 'none');
  // Button events are analytics too: an owner or editor looking at the live site sends none.
  if (viewerExclusion(context, censusDisabledIn(win)) === undefined) startButtonCensus({ window: win, tracking });
  startPopup(win, context, shown);
}

/**
 * Fetches and starts the banner's behaviour when the page's banner waits for an answer (an
 * answered one is removed here); resolves once it is on screen, or at once without one.
 */
function startBanner(win: Window & typeof globalThis): Promise<unknown> {
  const banner = win.document.querySelector<HTMLElement>(BANNER_SELECTOR);
  if (banner === null || removeAnsweredBanner(win, banner)) return Promise.resolve();
  return import('./cookie-banner').then((behaviour) => behaviour.startCookieBanner({ window: win }));
}

/** Mobile is at most 432 px wide (001 s3 layout breakpoints). */
const MOBILE_QUERY = '(max-width: 432px)';

/**
 * Starts the popup overlay when the server rendered one, with the page's settings and flags,
 * once the banner is on screen: the popup's rules read whether it waits for an answer.
 */
function startPopup(win: Window & typeof globalThis, context: Record<string, unknown>, banner: Promise<unknown>): void {
  if (win.document.querySelector(POPUP_SELECTOR) === null) return;
  const websiteSettings = context['websiteSettings'] as Record<string, unknown> | undefined;
  const settings = websiteSettings?.['popupOverlaySettings'] as PopupSettings | undefined;
  if (settings === undefined) return;
  const pageType = Number(context['pageType']);
  const page = {
    notFound: pageType === 100,
    lockScreen: pageType === 103,
    screenshot: new URL(win.location.href).searchParams.get('sqsscreenshot') === 'true',
    mobile: typeof win.matchMedia === 'function' && win.matchMedia(MOBILE_QUERY).matches,
  };
  void Promise.all([import('../popup/popup-overlay'), banner]).then(([popup]) => popup.startPopupOverlay({ window: win, settings, page }));
}
