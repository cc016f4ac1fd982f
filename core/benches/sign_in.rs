//! Sign-in latency with argon2id at OWASP's cost (19 MiB, 2 passes, 1 lane), through the
//! people service on its in-memory ports, so the figure is the hash's deliberate cost plus the
//! service around it: `cargo bench -p vitrine-core --bench sign_in`. One thread: sign-ins per
//! second per core is the inverse of the latency.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use criterion::{Criterion, criterion_group, criterion_main};
use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::InMemoryCommerceStore;
use vitrine_core::forms::RateLimit;
use vitrine_core::forms::SiteLinks;
use vitrine_core::forms::memory::{MemoryFormStore, MemoryRateLimiter};
use vitrine_core::people::{
    InMemoryPeopleStore, PasswordCost, PasswordHasher, PeopleLimits, PeoplePorts, PeopleService,
    PersonalRecords, Secret, SecretSource,
};

/// Distinct secrets without the operating system, so the bench measures hashing alone.
#[derive(Default)]
struct Counter(AtomicU64);

impl SecretSource for Counter {
    fn secret(&self) -> Secret {
        let n = self.0.fetch_add(1, Ordering::Relaxed);
        let mut bytes = [7u8; 32];
        bytes[..8].copy_from_slice(&n.to_le_bytes());
        Secret(bytes)
    }
}

fn service() -> (PeopleService, Arc<MemoryFormStore>) {
    let outbox = Arc::new(MemoryFormStore::new());
    let unlimited = RateLimit {
        max: u32::MAX,
        window_seconds: 1,
    };
    let service = PeopleService::new(
        PeoplePorts {
            store: Arc::new(InMemoryPeopleStore::new()),
            outbox: outbox.clone(),
            limiter: Arc::new(MemoryRateLimiter::new()),
            secrets: Arc::new(Counter::default()),
            passwords: Arc::new(PasswordHasher::new(PasswordCost::OWASP).unwrap()),
            records: PersonalRecords {
                orders: Arc::new(InMemoryCommerceStore::new()),
                newsletters: outbox.clone(),
                contributions: Arc::new(vitrine_core::checkout::InMemoryContributionStore::new()),
            },
        },
        SiteLinks::new("https://shop.example"),
        PeopleLimits {
            sign_ins_per_account: unlimited,
            sign_ins_per_client: unlimited,
            mails_per_client: unlimited,
            mails_per_account: unlimited,
        },
    );
    (service, outbox)
}

fn sign_in(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let (service, outbox) = service();
    let now = Timestamp(1_700_000_000_000);
    runtime.block_on(async {
        use vitrine_core::forms::DeliveryOutbox;
        service
            .sign_up("ada@example.com", "correct horse", "bench", now)
            .await
            .unwrap();
        let record = outbox.deliveries().await.unwrap().remove(0);
        let mail = outbox.mail_of(record.id).await.unwrap().unwrap();
        let start = mail.text.find("token=").unwrap() + 6;
        service
            .confirm_account(&mail.text[start..start + 64], now)
            .await
            .unwrap();
    });
    let mut group = c.benchmark_group("sign-in");
    group.sample_size(30);
    group.bench_function("right password", |b| {
        b.iter(|| {
            runtime.block_on(async {
                black_box(
                    service
                        .sign_in(
                            "ada@example.com",
                            "correct horse",
                            false,
                            None,
                            "bench",
                            now,
                        )
                        .await
                        .unwrap(),
                )
            })
        })
    });
    group.bench_function("unknown address (decoy hash)", |b| {
        b.iter(|| {
            runtime.block_on(async {
                black_box(
                    service
                        .sign_in(
                            "nobody@example.com",
                            "correct horse",
                            false,
                            None,
                            "bench",
                            now,
                        )
                        .await
                        .is_err(),
                )
            })
        })
    });
    group.finish();
}

criterion_group!(benches, sign_in);
criterion_main!(benches);
