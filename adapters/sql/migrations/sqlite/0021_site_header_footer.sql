-- The header and footer the owner set (001 s7 PUT /api/site-header-footer), cleaned HTML.
-- Kept apart from the imported site, so a new import keeps them.
CREATE TABLE site_header_footer (
    -- One header and footer per site; the check keeps a second row out.
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    header TEXT NOT NULL,
    footer TEXT NOT NULL
);
