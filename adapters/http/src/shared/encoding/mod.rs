//! Bodies compressed once and served many times: the brotli and gzip copies of a built asset or
//! a cached page, and the choice between them by the client's `Accept-Encoding`.

mod compression;
mod dynamic;
mod negotiation;

use axum::body::Bytes;

pub(crate) use compression::is_compressible;
pub(crate) use dynamic::AcceptEncoding;
pub(crate) use negotiation::Encoding;
use negotiation::choose;

/// Marks a response whose body is already in the encoding it declares (or deliberately sent as
/// it is): the router's compression ([`AcceptEncoding::compress`]) must not compress it again,
/// since its entity tag names these exact bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Precompressed;

/// A body's original bytes and its compressed copies, each kept only when it is smaller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Representations {
    identity: Bytes,
    brotli: Option<Bytes>,
    gzip: Option<Bytes>,
}

impl Representations {
    /// The original bytes alone, for content that is compressed already.
    pub(crate) fn identity(bytes: Bytes) -> Self {
        Self {
            identity: bytes,
            brotli: None,
            gzip: None,
        }
    }

    /// The original bytes and their copies. Brotli at its best setting is slow: call this off
    /// the async workers.
    pub(crate) fn compressed(bytes: Bytes) -> Self {
        Self {
            brotli: compression::brotli(&bytes).map(Bytes::from),
            gzip: compression::gzip(&bytes).map(Bytes::from),
            identity: bytes,
        }
    }

    /// The encodings there is a copy for, most preferred first, for tests to check what an
    /// asset keeps.
    #[cfg(test)]
    pub(crate) fn encodings(&self) -> Vec<Encoding> {
        self.available().collect()
    }

    /// The encodings there is a copy for, most preferred first, without collecting them: every
    /// request for a cached page or an asset asks.
    fn available(&self) -> impl Iterator<Item = Encoding> + '_ {
        [
            (Encoding::Brotli, &self.brotli),
            (Encoding::Gzip, &self.gzip),
        ]
        .into_iter()
        .filter_map(|(encoding, copy)| copy.is_some().then_some(encoding))
    }

    /// The copy a client with this `Accept-Encoding` gets, and its encoding.
    pub(crate) fn negotiate(&self, accept_encoding: Option<&str>) -> (Encoding, &Bytes) {
        let encoding = choose(accept_encoding, self.available());
        (encoding, self.bytes(encoding))
    }

    /// The copy in `encoding`, or the original when there is none.
    pub(crate) fn bytes(&self, encoding: Encoding) -> &Bytes {
        let copy = match encoding {
            Encoding::Brotli => self.brotli.as_ref(),
            Encoding::Gzip => self.gzip.as_ref(),
            Encoding::Identity => None,
        };
        copy.unwrap_or(&self.identity)
    }

    /// The original bytes.
    pub(crate) fn original(&self) -> &Bytes {
        &self.identity
    }
}
