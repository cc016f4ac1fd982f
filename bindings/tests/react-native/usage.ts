// How the React Native app calls the bindings, type-checked against the generated TypeScript
// (which itself opts out of checking with `@ts-nocheck`): a renamed export, a changed signature
// or a runtime type that no longer fits fails `npx tsc --noEmit` here. Never run; the calls
// need the native library, which exists only in a built app.

import {
  BridgeMessageError,
  BridgeName,
  type Clock,
  ConsentChoice,
  DeviceClass,
  type ExperimentDecision,
  ExperimentType,
  ExperimentsError,
  MobilePlatform,
  MoneyError,
  PopupDecision,
  PopupHideReason,
  PopupOverlay,
  type PopupRecordStorage,
  VisitorKind,
  bridgeLimits,
  buildDismissReply,
  buildErrorReply,
  buildInfoReply,
  cartDisplayCap,
  cartIndicatorLabel,
  consentCookie,
  consentDecision,
  decideExperiment,
  experimentBucket,
  formatMoney,
  identifyMobilePlatform,
  isFeatureEnabled,
  mousePositionTrackingEnabled,
  normaliseCookieBanner,
  normaliseCookieBannerJson,
  parseBridgeRequest,
  popupRecordKey,
  samplePicks,
  sessionReplayEnabled,
  supportedCurrencies,
  supportedLocales,
} from '../../generated/react-native/ts/vitrine_bindings';

/** Answers one message from the page: the reply to inject, or nothing for a dropped message. */
export function answer(message: string, cartCount: number): string | undefined {
  try {
    const request = parseBridgeRequest(message);
    if (request.name === BridgeName.Dismiss) {
      return buildDismissReply(request.id);
    }
    const info = { pageType: 'page', cartCount, signedIn: false, locale: 'en-US', experiments: new Map<string, string>() };
    return buildInfoReply(request.id, info);
  } catch (error) {
    if (BridgeMessageError.instanceOf(error)) {
      const inner: Readonly<{ errorText: string; reply?: string }> = error.inner;
      return inner.reply;
    }
    throw error;
  }
}

export function platform(os: string): MobilePlatform | string {
  try {
    return identifyMobilePlatform(os);
  } catch (error) {
    return BridgeMessageError.PlatformNotIdentified.instanceOf(error)
      ? buildErrorReply('req-1', error.inner.errorText)
      : String(error);
  }
}

export function badge(items: number): string {
  const label = cartIndicatorLabel(items);
  const cap: number = cartDisplayCap();
  return `${label.displayCount} ${label.spokenLabel} ${label.empty} ${cap}`;
}

export function price(amountMinor: bigint): string {
  try {
    return formatMoney(amountMinor, 'EUR', 'de-DE', false);
  } catch (error) {
    if (MoneyError.UnknownCurrency.instanceOf(error) || MoneyError.UnsupportedLocale.instanceOf(error)) {
      return '';
    }
    throw error;
  }
}

export function catalogue(): string[] {
  const codes = supportedCurrencies().map((currency) => `${currency.code} ${currency.englishName} ${currency.fractionDigits}`);
  return [...codes, ...supportedLocales()];
}

export function popup(now: () => bigint, stored: { value?: string }): boolean {
  const clock: Clock = { nowMs: now };
  const storage: PopupRecordStorage = {
    load: () => stored.value,
    save: (record: string) => {
      stored.value = record;
    },
  };
  const settings = { style: 'full', version: 1, showUntilSignup: true, displayFrequency: 7, enableMobile: true };
  const overlay = new PopupOverlay(settings, clock, storage);
  const page = { notFound: false, lockScreen: false, screenshot: false, mobile: true, bannerPending: false };
  const decision = overlay.decide(page);
  if (PopupDecision.Hide.instanceOf(decision)) {
    const reason: PopupHideReason = decision.inner.reason;
    return reason === PopupHideReason.RecentlyClosed;
  }
  overlay.recordClosed();
  overlay.recordSubmitted();
  return popupRecordKey().length > 0;
}

export function consent(json: string): boolean {
  const server = {};
  const settings = normaliseCookieBanner(server);
  const fromJson = normaliseCookieBannerJson(json);
  const decision = consentDecision(server, undefined, true, false);
  const cookie = consentCookie(ConsentChoice.Declined);
  return settings.isCookieBannerEnabled === fromJson.isCookieBannerEnabled && decision.trackingCookiesAllowed && cookie.maxAgeSeconds > 0n;
}

export const limits: { protocolVersion: number; maxMessageBytes: number; maxIdChars: number } = bridgeLimits();

export function experiment(definitionsJson: string | undefined, visitorId: string): string | undefined {
  const visitor = {
    visitorId,
    cookieless: false,
    kind: VisitorKind.Returning,
    member: true,
    device: DeviceClass.Mobile,
    locale: 'en-US',
  };
  try {
    const decision: ExperimentDecision = decideExperiment(definitionsJson, 'home-headline', ExperimentType.AbTest, visitor);
    const bucket: number = experimentBucket(decision.name, visitorId);
    const error: string | undefined = decision.error;
    return isFeatureEnabled(decision) && samplePicks(bucket, 5000) ? decision.variant : error;
  } catch (error) {
    if (ExperimentsError.InvalidDefinitionsJson.instanceOf(error)) {
      return undefined;
    }
    throw error;
  }
}

export function gating(authenticatedAccount: boolean, sampled: boolean, cpuCores?: number): boolean {
  return mousePositionTrackingEnabled(authenticatedAccount) && sessionReplayEnabled(true, sampled, cpuCores);
}
