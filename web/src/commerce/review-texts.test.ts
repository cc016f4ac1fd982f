import generated from '../generated/review-texts.json';
import { describe, expect, it } from 'vitest';
import * as texts from './review-texts';
import { parseReviewsProps, reviewFailureText, validateReview } from './review-texts';

const review = { token: 't', sku: 'MUG-1', rating: 0, title: '', body: '' };

describe('review rules', () => {
  it('requires a star rating of 1 to 5', () => {
    expect(validateReview(review)).toBe('Please select a star rating');
    expect(validateReview({ ...review, rating: 6 })).toBe('Please select a star rating');
    expect(validateReview({ ...review, rating: 3 })).toBeUndefined();
  });

  it('shows the server refusal, or asks to try again', () => {
    expect(reviewFailureText(400, { error: 'You have already reviewed this purchase' })).toBe(
      'You have already reviewed this purchase',
    );
    expect(reviewFailureText(400, { error: 'Your review request has expired' })).toBe('Your review request has expired');
    expect(reviewFailureText(500, { error: 'Something went wrong' })).toBe(
      'Something went wrong. Try submitting your review again',
    );
    expect(reviewFailureText(0, undefined)).toBe('Something went wrong. Try submitting your review again');
  });

  it('needs the request token in its props', () => {
    expect(parseReviewsProps({ token: 'abc' })).toEqual({ token: 'abc' });
    expect(() => parseReviewsProps({})).toThrow();
  });
});

describe('review texts', () => {
  it('are the core texts, verbatim', () => {
    expect({
      selectAStarRating: texts.SELECT_A_STAR_RATING,
      alreadyReviewed: texts.ALREADY_REVIEWED,
      requestExpired: texts.REQUEST_EXPIRED,
      noProductsToReview: texts.NO_PRODUCTS_TO_REVIEW,
      thanksForFeedback: texts.THANKS_FOR_FEEDBACK,
      somethingWentWrong: texts.SOMETHING_WENT_WRONG,
      tryAgain: texts.TRY_AGAIN,
    }).toEqual(generated);
  });
});
