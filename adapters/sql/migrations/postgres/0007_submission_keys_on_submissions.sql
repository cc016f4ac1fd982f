-- Each submission names the key that stored it. A group of submissions is then inserted in one
-- statement and matched to its keys by this column, and the unique index guarantees in the
-- database itself that a key stores at most one submission. Rows stored before this migration
-- keep NULL and are found through form_submission_keys.submission_id as before.
ALTER TABLE form_submissions ADD COLUMN submission_key TEXT;

CREATE UNIQUE INDEX form_submissions_one_per_key ON form_submissions (submission_key);
