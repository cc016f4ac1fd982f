-- Form submission keys and submissions. A key is consumed by setting its fingerprint in the
-- same transaction that stores its submission, so neither happens without the other.
CREATE TABLE form_submission_keys (
    submission_key TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL,
    fingerprint TEXT,
    submission_id BIGINT
);

CREATE TABLE form_submissions (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    form_id TEXT NOT NULL,
    collection_id TEXT,
    object_name TEXT NOT NULL,
    is_overlay_form BOOLEAN NOT NULL,
    form_values TEXT NOT NULL,
    spam BOOLEAN NOT NULL,
    -- For newsletters, the lowercased email: one subscription per email per list.
    subscription TEXT,
    created_at BIGINT NOT NULL
);

CREATE UNIQUE INDEX form_submissions_one_subscription
    ON form_submissions (form_id, subscription) WHERE subscription IS NOT NULL;
