//! The review texts of spec 000 s5 and s8, verbatim, and what a failed submission shows.

export const SELECT_A_STAR_RATING = 'Please select a star rating';
export const ALREADY_REVIEWED = 'You have already reviewed this purchase';
export const REQUEST_EXPIRED = 'Your review request has expired';
export const NO_PRODUCTS_TO_REVIEW = 'There are no products to review';
export const THANKS_FOR_FEEDBACK = 'Thanks for your feedback';
export const SOMETHING_WENT_WRONG = 'Something went wrong';
export const TRY_AGAIN = 'Try submitting your review again';

export const SUBMIT_REVIEW_URL = '/api/commerce/reviews';

/** What the reviewer sends for one product; rating 0 means no star was chosen. */
export interface ReviewSubmission {
  readonly token: string;
  readonly sku: string;
  readonly rating: number;
  readonly title: string;
  readonly body: string;
}

/** Checked before anything is sent: a review needs a star rating (000 s5). */
export function validateReview(review: ReviewSubmission): string | undefined {
  return Number.isInteger(review.rating) && review.rating >= 1 && review.rating <= 5 ? undefined : SELECT_A_STAR_RATING;
}

/**
 * The text of a failed submission: the server's own text for a refusal it explained (a 400
 * body), otherwise 'Something went wrong' with 'Try submitting your review again'.
 */
export function reviewFailureText(status: number, body: Readonly<Record<string, unknown>> | undefined): string {
  const error = body?.['error'];
  if (status === 400 && typeof error === 'string' && error !== '') return error;
  return `${SOMETHING_WENT_WRONG}. ${TRY_AGAIN}`;
}

export function parseReviewsProps(props: unknown): { token: string } {
  if (typeof props !== 'object' || props === null || typeof (props as { token?: unknown }).token !== 'string') {
    throw new Error('reviews island: props need the request token');
  }
  return { token: (props as { token: string }).token };
}
