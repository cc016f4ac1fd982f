//! The one bucketing of web, server and app (`vitrine_core::experiments::bucket`), for islands
//! that must decide in the browser: SHA-256 over the experiment's name and the visitor's id,
//! each prefixed by its UTF-8 length as four big-endian bytes; the digest's first four bytes as
//! a big-endian number, modulo 10,000. Tested against `experiment-vectors.json` from the core.
//! Pages need none of it: the server renders each visitor's variant and names it in the page
//! context's `experiments`, which `variantOf` reads.

export const BUCKETS = 10_000;

/** The experiment context of 001 s3, as the page context carries it. */
export interface ExperimentContext {
  readonly name: string;
  readonly experimentType: 'FEATURE_TOGGLE' | 'AB_TEST';
  readonly variant: string;
  readonly segmentName: string | null;
  readonly containsError: boolean;
}

function lengthPrefixed(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length, false);
  out.set(bytes, 4);
  return out;
}

/** The visitor's bucket in the experiment, in 0..BUCKETS (Web Crypto, so asynchronous). */
export async function bucket(experiment: string, visitorId: string, subtle: SubtleCrypto = globalThis.crypto.subtle): Promise<number> {
  const name = lengthPrefixed(experiment);
  const visitor = lengthPrefixed(visitorId);
  const input = new Uint8Array(name.length + visitor.length);
  input.set(name, 0);
  input.set(visitor, name.length);
  const digest = new DataView(await subtle.digest('SHA-256', input));
  return digest.getUint32(0, false) % BUCKETS;
}

/** The index of the variant a bucket falls in by the weights, as the core shares buckets out. */
export function pickVariant(bucketNumber: number, weights: readonly number[]): number | null {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === 0) return null;
  // bucket * total stays below 10^10 (weights add up to at most 1,000,000): exact in a double.
  const point = Math.floor((Math.min(bucketNumber, BUCKETS - 1) * total) / BUCKETS);
  let end = 0;
  for (const [index, weight] of weights.entries()) {
    end += weight;
    if (point < end) return index;
  }
  return null;
}

/** Whether a sample of `perTenThousand` in 10,000 visitors takes the visitor in this bucket. */
export function samplePicks(bucketNumber: number, perTenThousand: number): boolean {
  return bucketNumber < perTenThousand;
}

/** The context the server decided for the experiment `name` on this page, if it is here. */
export function contextOf(experiments: readonly ExperimentContext[] | undefined, name: string): ExperimentContext | undefined {
  return experiments?.find((experiment) => experiment.name === name);
}

/** 001 s4: a feature toggle is enabled when its variant equals 'true'. */
export function isFeatureEnabled(context: ExperimentContext | undefined): boolean {
  return context?.experimentType === 'FEATURE_TOGGLE' && context.variant === 'true';
}
