-- The owner's multilingual choice (001 s7): the published translations, as a JSON array of
-- language tags (NULL until the owner chooses: all of them), and whether the translation
-- provider was disconnected. Kept apart from the imported site, so a new import keeps it.
CREATE TABLE site_multilingual (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    published TEXT,
    provider_disconnected BOOLEAN NOT NULL
);
