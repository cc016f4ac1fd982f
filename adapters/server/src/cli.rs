//! The command line: `vitrine serve`, `vitrine import`, `vitrine migrate`, `vitrine owner` and
//! the other tools, each with its
//! options and the environment variables that can stand in for them.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Vitrine serves websites and storefronts: published pages rendered on the server, with small
/// interactive islands loaded only where a page needs them.
///
/// Start with `vitrine serve`: on a new, empty database it imports a demo site so there is
/// something to look at. Replace it with your own site with `vitrine import DIR`.
#[derive(Debug, Parser)]
#[command(name = "vitrine", version, propagate_version = true)]
#[command(
    after_help = "Logs go to standard error. Set RUST_LOG to choose what is logged \
    (default: info) and VITRINE_LOG_FORMAT=json for one JSON object per line."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the site over HTTP until stopped with Ctrl-C or SIGTERM.
    ///
    /// Applies pending database migrations first, and imports the demo site when the database
    /// holds no site yet.
    Serve(Box<ServeArgs>),
    /// Replace the stored site with a site bundle: a directory, or the built-in demo.
    ///
    /// The bundle is checked whole before anything is written: if any file is invalid, the
    /// error names the file, the field and what was expected, and the stored site is left as
    /// it was.
    Import(ImportArgs),
    /// Apply pending database migrations, then exit.
    ///
    /// `serve` and `import` do this too; run it alone to upgrade a database ahead of a
    /// deployment.
    Migrate(MigrateArgs),
    /// List or export the form submissions visitors sent.
    #[command(subcommand)]
    Submissions(SubmissionsCommand),
    /// Tools for block plugin authors.
    #[command(subcommand)]
    Plugin(crate::plugin_cli::PluginCommand),
    /// The site's images.
    #[command(subcommand)]
    Media(MediaCommand),
    /// The owner's analytics.
    #[command(subcommand)]
    Analytics(AnalyticsCommand),
    /// Owner and contributor accounts of the owner area at /config/.
    #[command(subcommand)]
    Owner(OwnerCommand),
    /// Orders after checkout: refund, mark sent with a tracking link, cancel.
    #[command(subcommand)]
    Orders(crate::orders_cli::OrdersCommand),
    /// Subscription renewals: charge what is due (for cron), list and cancel subscriptions.
    #[command(subcommand)]
    Billing(crate::billing_cli::BillingCommand),
}

#[derive(Debug, Clone, Subcommand)]
pub enum OwnerCommand {
    /// Add an account with a role; it gets a one-time setup link to choose its password,
    /// unless the password is given on standard input.
    Add(OwnerAddArgs),
    /// Print every account: address, role, its permissions, and whether setup is pending.
    List(OwnerListArgs),
    /// Remove an account; its sessions and API keys stop working at once.
    Remove(OwnerEmailArgs),
    /// Sign an account out everywhere, clear its password and second factor, and print a new
    /// setup link.
    Reset(OwnerEmailArgs),
    /// Turn on two-factor sign-in (TOTP) for an account and print what to add to an
    /// authenticator app.
    Totp(OwnerEmailArgs),
}

impl OwnerCommand {
    pub fn target(&self) -> &OwnerTarget {
        match self {
            Self::Add(args) => &args.target,
            Self::List(args) => &args.target,
            Self::Remove(args) | Self::Reset(args) | Self::Totp(args) => &args.target,
        }
    }
}

/// Where the accounts are stored and the address setup links point at.
#[derive(Debug, Clone, Args)]
pub struct OwnerTarget {
    /// The URL visitors reach the site at, for the setup links printed.
    #[arg(
        long,
        env = "VITRINE_PUBLIC_URL",
        value_name = "URL",
        hide_env_values = true,
        default_value = "http://127.0.0.1:8080"
    )]
    pub public_url: String,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Args)]
pub struct OwnerAddArgs {
    /// The account's email address, which it signs in with.
    pub email: String,

    /// The contributor role: admin, billing, reporting, editor, moderator, commenter,
    /// store-manager, scheduling, viewer, campaigns-editor, scheduling-viewer,
    /// scheduling-editor or none (or its code).
    #[arg(long, value_parser = crate::owner_cli::parse_role)]
    pub role: vitrine_core::enums::ContributorRole,

    /// Read the password from standard input instead of printing a setup link.
    #[arg(long)]
    pub password_stdin: bool,

    #[command(flatten)]
    pub target: OwnerTarget,
}

#[derive(Debug, Clone, Args)]
pub struct OwnerListArgs {
    #[command(flatten)]
    pub target: OwnerTarget,
}

#[derive(Debug, Clone, Args)]
pub struct OwnerEmailArgs {
    /// The account's email address.
    pub email: String,

    #[command(flatten)]
    pub target: OwnerTarget,
}

#[derive(Debug, Clone, Subcommand)]
pub enum MediaCommand {
    /// Make every image variant the published pages use ahead of the first visitor, into
    /// the data directory's media cache, with a progress bar.
    Warm(MediaWarmArgs),
}

#[derive(Debug, Clone, Args)]
pub struct MediaWarmArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Subcommand)]
pub enum AnalyticsCommand {
    /// Print views and visitors per day, top pages, referrers, button clicks, form conversion,
    /// script errors and Core Web Vitals (p75); figures counted without cookies are marked as
    /// estimates.
    Report(AnalyticsReportArgs),
    /// Write made-up but plausible traffic (page views, clicks, forms, Web Vitals, errors,
    /// orders) for the days ending today, to try the dashboard or measure it.
    Generate(AnalyticsGenerateArgs),
}

#[derive(Debug, Clone, Args)]
pub struct AnalyticsReportArgs {
    /// `text` for people, `json` for the same data the owner endpoint answers.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,

    /// The first day of the report (YYYY-MM-DD, UTC); with `--to`. Every day without them.
    #[arg(long, requires = "to")]
    pub from: Option<String>,

    /// The last day of the report (YYYY-MM-DD, UTC); with `--from`.
    #[arg(long, requires = "from")]
    pub to: Option<String>,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Args)]
pub struct AnalyticsGenerateArgs {
    /// How many days, ending today.
    #[arg(long, default_value_t = 30)]
    pub days: u32,

    /// Page views on a weekday (weekends get three fifths).
    #[arg(long, default_value_t = 300)]
    pub views_per_day: u32,

    /// The same seed writes the same traffic.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Subcommand)]
pub enum SubmissionsCommand {
    /// Print one line per stored submission, oldest first.
    List(SubmissionsListArgs),
    /// Write every stored submission to standard output, one row each, one column per field.
    Export(SubmissionsExportArgs),
}

#[derive(Debug, Clone, Args)]
pub struct SubmissionsListArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Args)]
pub struct SubmissionsExportArgs {
    /// The output format. CSV cells that a spreadsheet would read as formulas are escaped.
    #[arg(long, value_enum, default_value = "csv")]
    pub format: ExportFormat,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    Csv,
}

/// Where the site is stored.
#[derive(Debug, Clone, Args)]
pub struct DatabaseArgs {
    /// Database URL: `sqlite://PATH` for an embedded SQLite file, or
    /// `postgres://USER:PASSWORD@HOST:PORT/DATABASE` for PostgreSQL.
    /// [default: the SQLite file vitrine.db in the data directory]
    #[arg(
        long,
        env = "VITRINE_DATABASE_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    pub database_url: Option<String>,

    /// Directory for Vitrine's own files, such as the embedded database. It is created when
    /// missing.
    #[arg(
        long,
        env = "VITRINE_DATA_DIR",
        hide_env_values = true,
        value_name = "DIR",
        default_value = "./vitrine-data"
    )]
    pub data_dir: PathBuf,
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address and port to listen on. Use 0.0.0.0:PORT to accept connections from other
    /// machines.
    #[arg(
        long,
        env = "VITRINE_ADDR",
        hide_env_values = true,
        value_name = "IP:PORT",
        default_value = "127.0.0.1:8080"
    )]
    pub addr: SocketAddr,

    /// Serve HTTP requests on N threads of their own (0: one per core), each keeping its own
    /// connections: more cached pages a second, but writes (carts, checkouts, forms) wait
    /// longer. [default: the shared multi-thread runtime, best for a mixed load]
    #[arg(long, env = "VITRINE_HTTP_THREADS", value_name = "N")]
    pub http_threads: Option<usize>,

    /// The URL visitors reach the site at, e.g. https://shop.example. Used for absolute links
    /// (sitemap, robots.txt, social tags).
    /// [default: http:// and the listening address]
    #[arg(
        long,
        env = "VITRINE_PUBLIC_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    pub public_url: Option<String>,

    /// Serve the web build (scripts, styles, islands) from this directory instead of the copy
    /// built into the program: for front-end work without rebuilding the server, and for
    /// benchmarks. The directory is what `npm --prefix web run build` writes to web/dist.
    #[arg(long, env = "VITRINE_ASSETS_DIR", value_name = "DIR")]
    pub assets_dir: Option<PathBuf>,

    /// Load block plugins (WebAssembly components, each in a folder with its plugin.toml)
    /// from this directory. When it does not exist yet, it is created with the bundled
    /// example plugins. [default: the folder plugins in the data directory]
    #[arg(
        long,
        env = "VITRINE_PLUGINS_DIR",
        value_name = "DIR",
        hide_env_values = true
    )]
    pub plugins: Option<PathBuf>,

    /// Load a plugin again when its files in the plugins directory change, without a
    /// restart: for developing plugins. Pages rendered with the old plugin are not reused.
    #[arg(long, env = "VITRINE_WATCH_PLUGINS")]
    pub watch_plugins: bool,

    /// Answer the map block's place search from this Photon-compatible geocoding API (its
    /// base URL, `/api` is appended). Without it the places calls answer 503.
    #[arg(long, env = "VITRINE_GEOCODER_URL", value_name = "URL")]
    pub geocoder_url: Option<String>,

    /// Draw map blocks' static maps from this OpenStreetMap-style tile server, e.g.
    /// `https://tile.example.org/{z}/{x}/{y}.png`; tiles are fetched once and kept in the
    /// folder map-tiles of the data directory. Visitors' browsers load its tiles only for an
    /// interactive map, after they accept cookies or press "Load map". Without it a map
    /// block shows its address and link only. Mind the tile server's usage policy.
    #[arg(long, env = "VITRINE_TILE_URL", value_name = "TEMPLATE")]
    pub tile_url: Option<String>,

    /// The credit the tile server's usage policy asks for, shown under every map, e.g.
    /// "© OpenStreetMap contributors". [default: "Map tiles from <host>"]
    #[arg(
        long,
        env = "VITRINE_TILE_ATTRIBUTION",
        value_name = "TEXT",
        requires = "tile_url"
    )]
    pub tile_attribution: Option<String>,

    #[command(flatten)]
    pub http: crate::http_args::HttpArgs,

    #[command(flatten)]
    pub shared: crate::shared_state::SharedStateArgs,

    /// How long a cart's items are held for its shopper once checkout is entered, in
    /// seconds; other shoppers cannot take them meanwhile.
    #[arg(
        long,
        env = "VITRINE_CHECKOUT_HOLD_SECONDS",
        value_name = "SECONDS",
        default_value_t = vitrine_core::checkout::DEFAULT_HOLD_SECONDS,
        value_parser = clap::value_parser!(i64).range(1..=86_400)
    )]
    pub checkout_hold_seconds: i64,

    /// The key (64 hex digits, e.g. from `openssl rand -hex 32`) that signs the links in
    /// order mails, which open an order's page; servers sharing a database must share it.
    /// [default: a key made once and kept in the data directory's order-link-key]
    #[arg(
        long,
        env = "VITRINE_ORDER_LINK_KEY",
        value_name = "HEX",
        hide_env_values = true,
        value_parser = crate::order_links::parse_key
    )]
    pub order_link_key: Option<vitrine_core::checkout::OrderLinkKey>,

    #[command(flatten)]
    pub payments: Box<crate::payments::PaymentArgs>,

    #[command(flatten)]
    pub billing: crate::billing_cli::RenewalScheduleArgs,

    #[command(flatten)]
    pub database: DatabaseArgs,

    #[command(flatten)]
    pub delivery: Box<crate::delivery::DeliveryArgs>,
}

#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// The site bundle directory to import.
    #[arg(
        value_name = "DIR",
        required_unless_present = "demo",
        conflicts_with = "demo"
    )]
    pub dir: Option<PathBuf>,

    /// Import the demo site built into this program instead of a directory.
    #[arg(long)]
    pub demo: bool,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Args)]
pub struct MigrateArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn import_takes_a_directory_or_the_demo_but_not_both() {
        let parsed = Cli::try_parse_from(["vitrine", "import", "site"]).unwrap();
        assert!(matches!(
            parsed.command,
            Command::Import(ImportArgs {
                dir: Some(_),
                demo: false,
                ..
            })
        ));
        assert!(Cli::try_parse_from(["vitrine", "import", "--demo"]).is_ok());
        assert!(Cli::try_parse_from(["vitrine", "import"]).is_err());
        assert!(Cli::try_parse_from(["vitrine", "import", "site", "--demo"]).is_err());
    }

    #[test]
    fn serve_listens_on_localhost_8080_by_default() {
        let parsed = Cli::try_parse_from(["vitrine", "serve"]).unwrap();
        let Command::Serve(args) = parsed.command else {
            panic!("serve parses as serve");
        };
        // The environment may set these on a developer's machine; only check when it does not.
        if std::env::var_os("VITRINE_ADDR").is_none() {
            assert_eq!(args.addr, "127.0.0.1:8080".parse().unwrap());
        }
        if std::env::var_os("VITRINE_DATA_DIR").is_none() {
            assert_eq!(args.database.data_dir, PathBuf::from("./vitrine-data"));
        }
    }
}
