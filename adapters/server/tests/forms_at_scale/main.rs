//! Forms on real `vitrine serve` processes: two servers sharing one PostgreSQL and one Redis
//! (a key is accepted exactly once across both, the rate limit is shared), and the crash test
//! (every acknowledged submission survives a SIGKILL under load, none is stored twice).

mod crash;
mod http;
mod server;
mod services;
mod two_servers;
