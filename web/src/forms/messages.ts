//! Every text of the form flow shown to visitors (spec 000 s4, s5, s8), verbatim; a test checks them against the Rust side's vectors.

export const CHARACTER_LIMIT = 'You have exceeded the character limit.';
export const CAPTCHA_UNSOLVED = 'Complete CAPTCHA before submitting.';
/** The example the email message names in place of `{email}` (the same on the server). */
export const EMAIL_EXAMPLE = 'name@example.com';
export const EMAIL_INVALID = `Email is not valid. Email addresses should follow the format ${EMAIL_EXAMPLE}.`;
export const FIELDS_INVALID = 'One or more fields is invalid, please check your entries.';
export const ZIP_INVALID = 'Zip code must be exactly 5 digits.';
export const UNAUTHORIZED = 'Unable to submit form. Please try again later.';
export const NOT_CONFIGURED = 'This form has not been configured yet.';
export const RATE_LIMITED = 'Unable to submit form. Submission rate limit exceeded. Please try again later.';
export const SERVER_ERROR = 'Unable to send form. Please try again later.';
export const UNKNOWN_ERROR = 'Unknown error, please try again later.';
export const KEY_FAILURE = 'Could not get a form submission key, please try again later.';
export const PARSE_FAILURE = 'Could not parse the form fields, please check your entries.';
export const SAVE_FAILURE = 'Error processing form submission. Please reload and try again.';
export const ERRORS_ABOVE = 'Your form has encountered a problem. Please scroll down to review.';
export const ERRORS_BELOW = 'Your form has encountered a problem. Please scroll up to review.';
export const SUBMITTING = 'Submitting…';
/** What a newsletter shows after signing up; the specification gives no text for it. */
export const NEWSLETTER_THANKS = 'Thank you for signing up.';

/** A required field left empty (the same words as the server's). */
export function requiredMessage(title: string): string {
  return `${title} is required.`;
}
