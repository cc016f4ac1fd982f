//! Forms on real `vitrine serve` processes: two servers sharing one PostgreSQL and one Redis
//! (a key is accepted exactly once across both, the rate limit is shared), and the crash test
//! (every acknowledged submission survives a SIGKILL under load, none is stored twice), and
//! fault injection (PostgreSQL or Redis cut, slowed down or restarted under a running server).

mod crash;
mod faults;
mod http;
mod proxy;
mod server;
mod services;
mod two_servers;
