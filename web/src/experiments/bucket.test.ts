import { describe, expect, it } from 'vitest';

import vectors from '../generated/experiment-vectors.json';
import { BUCKETS, bucket, contextOf, isFeatureEnabled, pickVariant, samplePicks, type ExperimentContext } from './bucket';
import { mousePositionTrackingEnabled, sessionReplayEnabled } from './gating';

describe('experiment bucketing', () => {
  it('has vectors generated from the Rust core', () => {
    expect(vectors.bucketsCount).toBe(BUCKETS);
    expect(vectors.buckets.length).toBeGreaterThan(200);
    expect(vectors.picks.length).toBeGreaterThan(50);
  });

  it('puts every (experiment, visitor) pair in the bucket the core does', async () => {
    const computed = await Promise.all(vectors.buckets.map((v) => bucket(v.experiment, v.visitorId)));
    const mismatches = vectors.buckets.filter((v, index) => computed[index] !== v.bucket);
    expect(mismatches).toEqual([]);
  });

  it('picks the variant the core does for every weighting', () => {
    const mismatches = vectors.picks.filter((v) => pickVariant(v.bucket, v.weights) !== v.index);
    expect(mismatches).toEqual([]);
  });

  it('gates client features as the core does', () => {
    for (const [signedIn, enabled] of vectors.mouseTracking as [boolean, boolean][]) {
      expect(mousePositionTrackingEnabled(signedIn)).toBe(enabled);
    }
    const mismatches = vectors.sessionReplay.filter(
      (v) => sessionReplayEnabled(v.toggleOn, samplePicks(v.bucket, v.samplePerTenThousand), v.cpuCores ?? undefined) !== v.enabled,
    );
    expect(mismatches).toEqual([]);
  });

  it('reads a toggle the server decided from the page context', () => {
    const experiments: ExperimentContext[] = [
      { name: 'free-shipping-note', experimentType: 'FEATURE_TOGGLE', variant: 'true', segmentName: null, containsError: false },
      { name: 'home-headline', experimentType: 'AB_TEST', variant: 'true', segmentName: null, containsError: false },
    ];
    expect(isFeatureEnabled(contextOf(experiments, 'free-shipping-note'))).toBe(true);
    expect(isFeatureEnabled(contextOf(experiments, 'home-headline'))).toBe(false);
    expect(isFeatureEnabled(contextOf(experiments, 'missing'))).toBe(false);
    expect(isFeatureEnabled(contextOf(undefined, 'free-shipping-note'))).toBe(false);
  });
});
