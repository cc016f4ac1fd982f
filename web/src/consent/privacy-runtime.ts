//! Starts the privacy and measurement features of a page: error reporting, the cookie banner
//! (when the server rendered one), the automatic page view, counted with cookies only when
//! consent allows, and the popup overlay (when rendered). Part of the common script, no React.

import { readPageContext } from '../runtime/page-context';
import { startErrorCapture } from '../analytics/error-capture';
import { startButtonCensus } from '../analytics/button-census';
import { startLogger, startPerformance } from '../analytics/measurement';
import { censusDisabledIn, recordPageView, viewerExclusion } from '../analytics/page-view';
import { POPUP_SELECTOR, startPopupOverlay } from '../popup/popup-overlay';
import type { PopupSettings } from '../popup/rules';
import { popupRecordStore } from '../popup/storage';
import { nativeAppConsent, type NativeAppMode } from '../native-app/detection';
import { CONSENT_EVENT, clearTrackingCookies, policyOf, startCookieBanner, BANNER_SELECTOR } from './cookie-banner';
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
  startCookieBanner({ window: win });
  const tracking = trackingAllowed(policy, consent);
  if (!tracking) clearTrackingCookies(win);
  recordPageView(win, context, tracking, nativeApp.kind !== 'none');
  // Button events are analytics too: an owner or editor looking at the live site sends none.
  if (viewerExclusion(context, censusDisabledIn(win)) === undefined) startButtonCensus({ window: win, tracking });
  startPopup(win, context);
}

/** Mobile is at most 432 px wide (001 s3 layout breakpoints). */
const MOBILE_QUERY = '(max-width: 432px)';

/** Starts the popup overlay when the server rendered one, with the page's settings and flags. */
function startPopup(win: Window & typeof globalThis, context: Record<string, unknown>): void {
  if (win.document.querySelector(POPUP_SELECTOR) === null) return;
  const websiteSettings = context['websiteSettings'] as Record<string, unknown> | undefined;
  const settings = websiteSettings?.['popupOverlaySettings'] as PopupSettings | undefined;
  if (settings === undefined) return;
  const pageType = Number(context['pageType']);
  startPopupOverlay({
    window: win,
    settings,
    page: {
      notFound: pageType === 100,
      lockScreen: pageType === 103,
      screenshot: new URL(win.location.href).searchParams.get('sqsscreenshot') === 'true',
      mobile: typeof win.matchMedia === 'function' && win.matchMedia(MOBILE_QUERY).matches,
    },
    store: popupRecordStore(win),
  });
}
