//! `vitrine plugin new|build|check`: the plugin author's commands. `check DIR` loads a plugin
//! folder as the server would and renders one block with it, reporting its size, time, peak
//! memory and outcome against the limits.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use vitrine_core::enums::BlockType;
use vitrine_core::plugins::{BlockRenderRequest, PluginBlockType};
use vitrine_plugins::{Manifest, PluginHost};

#[derive(Debug, Clone, Subcommand)]
pub enum PluginCommand {
    /// Create a plugin project NAME in the current folder: Cargo.toml depending on the SDK,
    /// src/lib.rs, plugin.toml and sample.json.
    New(NewArgs),
    /// Compile a plugin project to a WebAssembly component (wasm32-wasip2, installed with
    /// rustup when missing) and write it beside plugin.toml.
    Build(BuildArgs),
    /// Load a plugin folder (plugin.toml beside its component) as the server would, render one
    /// block with it, and report its size, time and output against the limits.
    Check(CheckArgs),
}

#[derive(Debug, Clone, Args)]
pub struct NewArgs {
    /// The plugin's name: lowercase letters, digits and hyphens, such as opening-hours.
    pub name: String,
    /// The folder of vitrine-plugin-sdk (plugins/sdk in Vitrine's source).
    /// [default: the SDK of the source tree this program was built from]
    #[arg(long, value_name = "DIR")]
    pub sdk: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct BuildArgs {
    /// The plugin project, holding Cargo.toml and plugin.toml.
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The plugin folder, holding plugin.toml.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// A JSON file with the block data to render. [default: an empty object]
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
}

pub fn run(command: PluginCommand) -> anyhow::Result<()> {
    match command {
        PluginCommand::New(args) => {
            let dir = crate::plugin_new::create(&args.name, Path::new("."), args.sdk.as_deref())?;
            println!("created the plugin project {}", dir.display());
            println!(
                "next: edit src/lib.rs and plugin.toml, then `vitrine plugin build {0}` and \
                 `vitrine plugin check {0} --data {0}/sample.json`",
                dir.display()
            );
            Ok(())
        }
        PluginCommand::Build(args) => {
            let component = crate::plugin_build::build(&args.dir)?;
            println!("built {}", component.display());
            Ok(())
        }
        PluginCommand::Check(args) => check(&args),
    }
}

fn check(args: &CheckArgs) -> anyhow::Result<()> {
    let manifest_path = args.dir.join("plugin.toml");
    let text = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("could not read {}", manifest_path.display()))?;
    let manifest = Manifest::parse(&text)
        .with_context(|| format!("{} is not valid", manifest_path.display()))?;
    let limits = manifest.limits().map_err(anyhow::Error::msg)?;
    let size = std::fs::metadata(args.dir.join(&manifest.component))
        .with_context(|| format!("could not read the component {}", manifest.component))?
        .len();
    println!("plugin {} {}", manifest.name, manifest.version);
    println!(
        "component: {size} bytes (limit {} bytes)",
        limits.binary_bytes
    );

    let mut host = PluginHost::new(None)?;
    let started = Instant::now();
    host.load_plugin_dir(&args.dir)?;
    println!(
        "compiled and linked in {:?}; capabilities are declared",
        started.elapsed()
    );

    let Some(claim) = manifest.blocks.first() else {
        bail!("the plugin claims no block type, so no block can render");
    };
    let block_type = match claim.code {
        Some(code) => PluginBlockType::Spec(
            BlockType::from_code(code)
                .with_context(|| format!("{code} is not a block type code"))?,
        ),
        None => PluginBlockType::from_name(&claim.name)?,
    };
    let data = match &args.data {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("could not read {}", path.display()))?,
        None => "{}".to_owned(),
    };
    let request = BlockRenderRequest {
        locale: "en-US",
        currency: "USD",
        block_id: "check",
        block_type: block_type.clone(),
        signed_in: false,
        page_url: "/",
        data: &data,
    };
    let started = Instant::now();
    let (outcome, stats) = host.render_with_stats(&request);
    let elapsed = started.elapsed();
    println!(
        "peak memory: {} bytes (limit {} bytes)",
        stats.peak_memory_bytes, limits.memory_bytes
    );
    println!("fuel used: {} (limit {})", stats.fuel_used, limits.fuel);
    match outcome {
        Ok(rendering) => {
            let html = rendering.html.as_str();
            println!(
                "rendered {block_type} in {elapsed:?}: {} bytes of HTML after sanitising (limit {} bytes)",
                html.len(),
                limits.output_bytes
            );
            if let Some(seconds) = rendering.cache_seconds {
                println!("reusable for {seconds} seconds");
            }
            println!("{html}");
            Ok(())
        }
        Err(error) => bail!("the render failed after {elapsed:?}: {error}"),
    }
}
