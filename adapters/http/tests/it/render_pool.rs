//! Plugin renders run in a bounded pool of blocking threads: a flood of renders of the hostile
//! infinite-loop program leaves pages served, and beyond the queue the widget API answers 503
//! with `Retry-After` while pages show the block's fallback (and are not cached with it).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::enums::BlockType;
use vitrine_core::pages::PageService;
use vitrine_core::plugins::{
    BlockRenderError, BlockRenderRequest, BlockRenderer, FALLBACK_HTML, PluginBlockType,
    PluginRendering,
};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{Block, BlockContent, CollectionId, Layout, Slug};
use vitrine_http::AppState;
use vitrine_plugins::PluginHost;

use crate::support::{self, Answer, fetch, send};

const CRUMB: &str = "k9bT2mXq7RfLw3ZpN4vY8sHcJ6dG1eAu0iOoPqRsTuV";

/// The real host with the infinite-loop program, behind a gate: each render waits until the
/// test opens the gate (or a minute passes, so a broken pool fails the test instead of
/// hanging it), then loops until the host stops it.
struct GatedLoop {
    host: PluginHost,
    open: Mutex<bool>,
    opened: Condvar,
    waiting: AtomicUsize,
}

/// A host with the built plugin `name` loaded.
fn host_with(name: &str) -> PluginHost {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../plugins/guests/target/plugins")
        .join(name);
    assert!(
        dir.join("plugin.toml").is_file(),
        "the WebAssembly plugins are not built: run `cargo xtask plugins`"
    );
    let mut host = PluginHost::new(None).unwrap();
    host.load_plugin_dir(&dir).unwrap();
    host
}

impl GatedLoop {
    fn new() -> Self {
        Self {
            host: host_with("infinite-loop"),
            open: Mutex::new(false),
            opened: Condvar::new(),
            waiting: AtomicUsize::new(0),
        }
    }

    fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.opened.notify_all();
    }
}

impl BlockRenderer for GatedLoop {
    fn claims(&self, block_type: &PluginBlockType) -> bool {
        self.host.claims(block_type)
    }

    fn render(
        &self,
        request: &BlockRenderRequest<'_>,
    ) -> Result<PluginRendering, BlockRenderError> {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let open = self.open.lock().unwrap();
        let _open = self
            .opened
            .wait_timeout_while(open, Duration::from_secs(60), |open| !*open)
            .unwrap();
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        self.host.render(request)
    }
}

/// The fixture site plus `/loop`, a page holding one infinite-loop block (it claims the
/// calendar type), served with at most `workers` renders running and `queue` waiting.
async fn app(renderer: Arc<GatedLoop>, workers: usize, queue: usize) -> axum::Router {
    let mut site = support::site();
    let mut page = site.collections[0].clone();
    page.id = CollectionId::try_from("loop".to_owned()).unwrap();
    page.slug = Slug::parse("loop").unwrap();
    page.body.layout = Layout::stacked(vec![Block {
        id: "looping".to_owned().try_into().unwrap(),
        content: BlockContent::Plugin {
            block_type: BlockType::Calendar.into(),
            data: serde_json::json!(null),
        },
    }])
    .unwrap();
    site.collections.push(page);
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let state = AppState::new(
        pages,
        repository,
        Arc::new(support::fixture_assets()),
        support::config(),
    )
    .with_block_renderer(renderer)
    .with_render_pool(workers, queue);
    vitrine_http::router(state)
}

fn widget_request() -> Request<Body> {
    widget(r#"{"type":26,"id":"looping","value":null}"#)
}

fn widget(widget_json: &str) -> Request<Body> {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("widgetJSON", widget_json)
        .finish();
    Request::post(format!("/api/widget/GetWidgetRendering?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap()
}

#[tokio::test]
async fn a_flood_of_looping_renders_leaves_pages_served_and_the_queue_limit_answers_503() {
    let renderer = Arc::new(GatedLoop::new());
    let app = app(renderer.clone(), 2, 2).await;
    // Two renders run (held at the gate, on blocking threads) and two wait for a slot.
    let flood: Vec<tokio::task::JoinHandle<Answer>> = (0..4)
        .map(|_| {
            let app = app.clone();
            tokio::spawn(async move { send(&app, widget_request()).await })
        })
        .collect();
    while renderer.waiting.load(Ordering::SeqCst) < 2 {
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    // The pool is full: pages are still served, by this same single-threaded runtime.
    let home = fetch(&app, "/").await;
    assert_eq!(home.status, StatusCode::OK);
    assert_eq!(
        renderer.waiting.load(Ordering::SeqCst),
        2,
        "the page answered while the renders were still blocked"
    );
    assert!(flood.iter().all(|render| !render.is_finished()));

    // Beyond the queue: 503 with Retry-After for the API, the fallback on a page.
    let busy = send(&app, widget_request()).await;
    assert_eq!(busy.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(busy.header("retry-after"), "1");
    assert_eq!(
        busy.json()["error"],
        "Too many blocks are being rendered right now. Please try again in a moment."
    );
    let page = fetch(&app, "/loop").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text().contains(FALLBACK_HTML), "{}", page.text());

    // Let the flood through: the host stops each loop, and the API answers the fallback.
    renderer.open();
    for render in flood {
        let answer = render.await.unwrap();
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.json()["html"], FALLBACK_HTML);
    }
    // The busy page was not cached: with the pool free, the block is rendered again.
    let before = renderer.host.status()[0].failures_total;
    fetch(&app, "/loop").await;
    assert_eq!(renderer.host.status()[0].failures_total, before + 1);
}

#[tokio::test]
async fn oversized_or_malformed_widget_data_answers_4xx_and_never_disables_the_plugin() {
    // The hole: five such calls counted as five plugin failures and disabled the chart.
    let host = Arc::new(host_with("chart"));
    let repository = support::repository().await;
    let pages = Arc::new(PageService::new(repository.clone()));
    let state = AppState::new(
        pages,
        repository,
        Arc::new(support::fixture_assets()),
        support::config(),
    )
    .with_block_renderer(host.clone());
    let app = vitrine_http::router(state);
    let oversized = format!(r#"{{"type":62,"id":"c","value":"{}"}}"#, "x".repeat(70_000));
    for _ in 0..10 {
        let answer = send(&app, widget(&oversized)).await;
        assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(
            answer.json()["error"],
            "The block data is 70002 bytes, above this block's limit of 65536 bytes."
        );
        let answer = send(&app, widget(r#"{"type":62,"id":"c","value":[1,2]}"#)).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST);
        let error = answer.json()["error"].as_str().unwrap().to_owned();
        assert!(
            error.starts_with("The block data is not valid for this block: "),
            "{error}"
        );
    }
    let status = &host.status()[0];
    assert!(status.enabled, "{status:?}");
    assert_eq!(status.failures_total, 0);
    let chart =
        r#"{"type":62,"id":"c","value":{"title":"T","description":"D","kind":"bar","points":[]}}"#;
    let answer = send(&app, widget(chart)).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_ne!(
        answer.json()["html"],
        FALLBACK_HTML,
        "the chart still renders"
    );
}
