//! The HTML of the owner area's pages: server-rendered, working without JavaScript, every
//! text escaped. A page is never cached, never indexed, and may frame this site (the preview)
//! but nothing else.

use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use vitrine_core::enums::PermissionCode;
use vitrine_core::owners::{ApiKey, OwnerSession, OwnerViewer, role_permissions, role_permits};

use crate::shared::request_parts::escape_html as escape;
use crate::shared::security_headers::CONTENT_SECURITY_POLICY_VALUE;

/// The site's policy with frames from this origin allowed, for the preview of the live site.
fn config_policy() -> String {
    CONTENT_SECURITY_POLICY_VALUE.replace(
        "frame-src https://www.youtube-nocookie.com https://player.vimeo.com",
        "frame-src 'self'",
    )
}

/// A whole owner-area page.
pub(super) fn page(status: StatusCode, title: &str, body: &str) -> Response {
    page_with_head(status, title, "", body)
}

/// A whole owner-area page with `head` (already escaped markup: its scripts and styles)
/// added to its head.
pub(super) fn page_with_head(status: StatusCode, title: &str, head: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title}</title>{head}</head>\
         <body class=\"owner-area\">{body}</body></html>",
        title = escape(title),
    );
    let mut response = (status, [(CACHE_CONTROL, "no-store")], Html(html)).into_response();
    if let Ok(policy) = HeaderValue::from_str(&config_policy()) {
        response
            .headers_mut()
            .insert(CONTENT_SECURITY_POLICY, policy);
    }
    response
}

/// An error or notice above a form, announced to screen readers.
pub(super) fn alert(text: Option<&str>) -> String {
    text.map(|text| {
        format!(
            "<p role=\"alert\" class=\"owner-error\">{}</p>",
            escape(text)
        )
    })
    .unwrap_or_default()
}

/// The sign-in form: address, password and, for accounts that have one, the second factor.
pub(super) fn sign_in_form(frame_url: &str, email: &str, error: Option<&str>) -> String {
    format!(
        "<main><h1>Sign in</h1>{alert}\
         <form method=\"post\" action=\"/config/sign-in\">\
         <input type=\"hidden\" name=\"frameUrl\" value=\"{frame}\">\
         <p><label for=\"owner-email\">Email</label> \
         <input id=\"owner-email\" name=\"email\" type=\"email\" autocomplete=\"username\" required value=\"{email}\"></p>\
         <p><label for=\"owner-password\">Password</label> \
         <input id=\"owner-password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required></p>\
         <p><label for=\"owner-code\">Two-factor code (if turned on)</label> \
         <input id=\"owner-code\" name=\"code\" inputmode=\"numeric\" autocomplete=\"one-time-code\" pattern=\"[0-9 ]*\"></p>\
         <p><button type=\"submit\">Sign in</button></p></form></main>",
        alert = alert(error),
        frame = escape(frame_url),
        email = escape(email),
    )
}

/// The form that sets a password from a setup link.
pub(super) fn setup_form(token: &str, email: &str, error: Option<&str>) -> String {
    format!(
        "<main><h1>Choose your password</h1>{alert}<p>For {email}.</p>\
         <form method=\"post\" action=\"/config/setup\">\
         <input type=\"hidden\" name=\"token\" value=\"{token}\">\
         <p><label for=\"owner-new-password\">New password</label> \
         <input id=\"owner-new-password\" name=\"password\" type=\"password\" autocomplete=\"new-password\" minlength=\"8\" required></p>\
         <p><button type=\"submit\">Save and sign in</button></p></form></main>",
        alert = alert(error),
        email = escape(email),
        token = escape(token),
    )
}

pub(super) fn hidden_csrf(viewer: &OwnerViewer) -> String {
    format!(
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\">",
        escape(&viewer.session.csrf_token)
    )
}

pub(super) fn date(millis: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(millis / 1000)
        .map(|at| {
            format!(
                "{}-{:02}-{:02} {:02}:{:02} UTC",
                at.year(),
                u8::from(at.month()),
                at.day(),
                at.hour(),
                at.minute()
            )
        })
        .unwrap_or_default()
}

fn sessions_table(viewer: &OwnerViewer, sessions: &[OwnerSession]) -> String {
    let rows: String = sessions
        .iter()
        .map(|session| {
            let action = if session.id == viewer.session.id {
                "This browser".to_owned()
            } else {
                format!(
                    "<form method=\"post\" action=\"/config/sessions/revoke\">{csrf}\
                     <input type=\"hidden\" name=\"id\" value=\"{id}\">\
                     <button type=\"submit\">Sign out this browser</button></form>",
                    csrf = hidden_csrf(viewer),
                    id = escape(&session.id),
                )
            };
            format!(
                "<tr><td>{agent}</td><td>{created}</td><td>{expires}</td><td>{action}</td></tr>",
                agent = escape(&session.user_agent),
                created = date(session.created.millis()),
                expires = date(session.expires_at.millis()),
            )
        })
        .collect();
    format!(
        "<section aria-labelledby=\"owner-sessions\"><h2 id=\"owner-sessions\">Signed-in browsers</h2>\
         <table><thead><tr><th scope=\"col\">Browser</th><th scope=\"col\">Signed in</th>\
         <th scope=\"col\">Expires</th><th scope=\"col\">Action</th></tr></thead>\
         <tbody>{rows}</tbody></table></section>"
    )
}

fn scope_names(scopes: &[PermissionCode]) -> String {
    scopes
        .iter()
        .map(|scope| scope.spec_name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn keys_section(viewer: &OwnerViewer, keys: &[ApiKey], issued: Option<&str>) -> String {
    let rows: String = keys
        .iter()
        .map(|key| {
            format!(
                "<tr><td>{name}</td><td>{scopes}</td><td>{created}</td><td>\
                 <form method=\"post\" action=\"/config/api-keys/revoke\">{csrf}\
                 <input type=\"hidden\" name=\"id\" value=\"{id}\">\
                 <button type=\"submit\">Revoke {name}</button></form></td></tr>",
                name = escape(&key.name),
                scopes = escape(&scope_names(&key.scopes)),
                created = date(key.created.millis()),
                csrf = hidden_csrf(viewer),
                id = escape(&key.id),
            )
        })
        .collect();
    let table = if keys.is_empty() {
        "<p>No API keys yet.</p>".to_owned()
    } else {
        format!(
            "<table><thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Scopes</th>\
             <th scope=\"col\">Created</th><th scope=\"col\">Action</th></tr></thead>\
             <tbody>{rows}</tbody></table>"
        )
    };
    let issued = issued
        .map(|secret| {
            format!(
                "<div role=\"status\"><p>Your new key, shown only this once:</p>\
                 <p><code class=\"owner-new-key\">{}</code></p></div>",
                escape(secret)
            )
        })
        .unwrap_or_default();
    let choices: String = role_permissions(viewer.owner.role)
        .iter()
        .map(|scope| {
            format!(
                "<label><input type=\"checkbox\" name=\"scope\" value=\"{code}\"> {name}</label> ",
                code = scope.code(),
                name = escape(scope.spec_name()),
            )
        })
        .collect();
    format!(
        "<section aria-labelledby=\"owner-keys\"><h2 id=\"owner-keys\">API keys</h2>\
         <p>Scripts send a key as <code>Authorization: Bearer</code>; it can do what its scopes \
         allow, within your role.</p>{issued}{table}\
         <form method=\"post\" action=\"/config/api-keys\">{csrf}\
         <p><label for=\"owner-key-name\">Key name</label> \
         <input id=\"owner-key-name\" name=\"name\" maxlength=\"80\" required></p>\
         <fieldset><legend>Scopes</legend>{choices}</fieldset>\
         <p><button type=\"submit\">Create key</button></p></form></section>",
        csrf = hidden_csrf(viewer),
    )
}

/// What a signed-in owner sees first: the live site in a preview frame, the browsers signed
/// in to the account and its API keys.
pub(super) struct FirstScreen<'a> {
    pub viewer: &'a OwnerViewer,
    pub frame_url: &'a str,
    /// The dashboard's section, already markup.
    pub dashboard: &'a str,
    pub sessions: &'a [OwnerSession],
    pub keys: &'a [ApiKey],
    pub issued_key: Option<&'a str>,
    pub error: Option<&'a str>,
    /// The two-step verification section, already markup.
    pub second_factor: &'a str,
}

pub(super) fn first_screen(screen: &FirstScreen<'_>) -> String {
    let viewer = screen.viewer;
    format!(
        "<header class=\"owner-bar\" aria-label=\"Owner area\"><p>Signed in as {email} ({role})</p>\
         <form method=\"post\" action=\"/config/sign-out\" data-sign-out>{csrf}\
         <input type=\"hidden\" name=\"frameUrl\" value=\"{frame}\">\
         <button type=\"submit\">Log out</button></form></header>\
         {tables}<main aria-label=\"Owner area\"><h1>Your site</h1>{alert}\
         <div class=\"owner-overview\">\
         <section class=\"owner-preview-section\" aria-labelledby=\"owner-preview\">\
         <h2 id=\"owner-preview\">Preview</h2>\
         <iframe class=\"owner-preview\" title=\"Preview of your site\" src=\"{frame}\" \
         width=\"1024\" height=\"640\"></iframe></section>{dashboard}</div>\
         {tab_activity}{sessions}{second_factor}{keys}</main>",
        email = escape(viewer.owner.email.as_str()),
        role = escape(viewer.owner.role.spec_name()),
        csrf = hidden_csrf(viewer),
        frame = escape(screen.frame_url),
        alert = alert(screen.error),
        dashboard = screen.dashboard,
        tab_activity = tab_activity(viewer),
        tables = super::tables::navigation(),
        sessions = sessions_table(viewer, screen.sessions),
        keys = keys_section(viewer, screen.keys, screen.issued_key),
        second_factor = screen.second_factor,
    )
}

/// The "Activity in your open tabs" panel, for an account holding the admin permission only
/// (001 s6: only the admin opens the admin channel that feeds it). It is hidden until the
/// dashboard's script opens the channel, since without a script it could show nothing; the
/// role's permission codes let the script check the same gate as the site's tabs.
pub(super) fn tab_activity(viewer: &OwnerViewer) -> String {
    let role = viewer.owner.role;
    if !role_permits(role, PermissionCode::Admin) {
        return String::new();
    }
    let codes: Vec<String> = role_permissions(role)
        .iter()
        .map(|code| code.code().to_string())
        .collect();
    format!(
        "<section id=\"tab-activity\" class=\"owner-tab-activity\" aria-labelledby=\"tab-activity-title\" \
         data-tab-activity data-permissions=\"{codes}\" hidden>\
         <h2 id=\"tab-activity-title\">Activity in your open tabs</h2>\
         <p>The pages you view and the links and buttons you press on your site, in this \
         browser's other tabs, as they happen. They stay in this browser: the site's analytics \
         do not count an owner's visits.</p>\
         <div role=\"log\" aria-labelledby=\"tab-activity-title\">\
         <p data-tab-activity-empty></p><ol hidden></ol></div></section>",
        codes = codes.join(" "),
    )
}

/// What an account whose role does not open the owner area sees.
pub(super) fn no_access(viewer: &OwnerViewer) -> String {
    format!(
        "<main><h1>No access</h1><p>Your role ({role}) does not open the owner area.</p>\
         <form method=\"post\" action=\"/config/sign-out\">{csrf}\
         <button type=\"submit\">Log out</button></form></main>",
        role = escape(viewer.owner.role.spec_name()),
        csrf = hidden_csrf(viewer),
    )
}
