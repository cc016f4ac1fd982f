//! The crash test: submissions under concurrent load against a real server, SIGKILL in the
//! middle, a restart on the same database, and then every submission that was answered 200
//! must be stored, and none twice.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::http::Visitor;
use crate::server::{NO_LIMITS, Server, run};
use crate::services::Schema;

/// Clients sending at once.
const CLIENTS: u64 = 16;
/// The server is killed once this many submissions were acknowledged.
const KILL_AFTER: usize = 300;
/// Bounds on the load, whatever happens.
const MAX_PER_CLIENT: usize = 2_000;
const MAX_LOAD: Duration = Duration::from_secs(60);

/// Runs the load against `server` until it is killed; the messages answered 200.
async fn load_and_kill(server: &mut Server) -> Vec<String> {
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let address = server.address.clone();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let (acknowledged, address) = (acknowledged.clone(), address.clone());
            tokio::spawn(async move {
                let visitor = Visitor::new(100 + client);
                for n in 0..MAX_PER_CLIENT {
                    let Ok(key) = visitor.key(&address).await else {
                        return;
                    };
                    let message = format!("c{client}-n{n}");
                    match visitor.submit(&address, &key, &message).await {
                        Ok(200) => acknowledged.lock().unwrap().push(message),
                        Ok(status) => panic!("submission {message} answered {status}"),
                        // The server was killed.
                        Err(_) => return,
                    }
                }
            })
        })
        .collect();
    let started = Instant::now();
    while acknowledged.lock().unwrap().len() < KILL_AFTER && started.elapsed() < MAX_LOAD {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill();
    for client in clients {
        client
            .await
            .expect("a client fails only on a refused submission");
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(
        acknowledged.len() >= KILL_AFTER,
        "the load ran: {} acknowledged; {}",
        acknowledged.len(),
        server.log()
    );
    acknowledged
}

/// Restarts on the same database, checks the server works, and checks what is stored.
async fn check_after_restart(
    data_dir: &Path,
    args: &[&str],
    database_url: &str,
    acknowledged: &[String],
) {
    let restarted = Server::start(data_dir, args);
    let visitor = Visitor::new(999);
    let key = visitor.key(&restarted.address).await.unwrap();
    assert_eq!(
        visitor
            .submit(&restarted.address, &key, "after")
            .await
            .unwrap(),
        200,
        "the restarted server takes submissions"
    );
    drop(restarted);

    let database = vitrine_sql::connect(database_url).await.unwrap();
    let rows = database.form_store().list().await.unwrap();
    database.close().await;
    let mut stored: HashMap<String, usize> = HashMap::new();
    for row in &rows {
        let values: serde_json::Value = serde_json::from_str(&row.values_json).unwrap();
        let message = values["message"].as_str().unwrap().to_owned();
        *stored.entry(message).or_default() += 1;
    }
    let twice: Vec<_> = stored.iter().filter(|(_, count)| **count > 1).collect();
    assert!(twice.is_empty(), "stored more than once: {twice:?}");
    let lost: Vec<_> = acknowledged
        .iter()
        .filter(|message| !stored.contains_key(*message))
        .collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged submissions were lost: {lost:?}",
        lost.len(),
        acknowledged.len()
    );
    // What was stored but not acknowledged was in flight when the server died.
    assert!(rows.len() <= acknowledged.len() + CLIENTS as usize + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_keeps_every_acknowledged_submission_through_a_sigkill() {
    let data = tempfile::tempdir().unwrap();
    let args = ["--form-limits", NO_LIMITS];
    let mut server = Server::start(data.path(), &args);
    let acknowledged = load_and_kill(&mut server).await;
    let url = vitrine_sql::sqlite_url_for_data_dir(data.path());
    check_after_restart(data.path(), &args, &url, &acknowledged).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_keeps_every_acknowledged_submission_through_a_sigkill() {
    let Some(schema) = Schema::fresh().await else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap();
    run(&[
        "import",
        "--demo",
        "--database-url",
        &schema.url,
        "--data-dir",
        data_dir,
    ]);
    let args = ["--form-limits", NO_LIMITS, "--database-url", &schema.url];
    let mut server = Server::start(data.path(), &args);
    let acknowledged = load_and_kill(&mut server).await;
    check_after_restart(data.path(), &args, &schema.url, &acknowledged).await;
}
