//! A minimal HTTP/1.1 client for the form calls: one connection per request, closed by the
//! server after its answer, so the whole answer is what the socket gives until it ends.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A visitor: the crumb cookie it sends with every call (and repeats in the query).
#[derive(Debug, Clone)]
pub struct Visitor {
    crumb: String,
}

impl Visitor {
    pub fn new(seed: u64) -> Self {
        Self {
            crumb: format!("{:032x}", u128::from(seed) * 0x9e37_79b9_7f4a_7c15 + 1),
        }
    }

    async fn post(&self, address: &str, path: &str, body: &str) -> std::io::Result<(u16, String)> {
        let request = format!(
            "POST {path}?crumb={crumb} HTTP/1.1\r\nHost: {address}\r\nCookie: crumb={crumb}\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {length}\r\n\
             Connection: close\r\n\r\n{body}",
            crumb = self.crumb,
            length = body.len()
        );
        exchange(address, &request).await
    }

    /// A fresh form key from the server at `address`.
    pub async fn key(&self, address: &str) -> std::io::Result<String> {
        let (status, body) = self
            .post(address, "/api/form/FormSubmissionKey", "")
            .await?;
        let key = body
            .split_once(r#""key":""#)
            .and_then(|(_, rest)| rest.get(..64))
            .filter(|_| status == 200);
        key.map(str::to_owned)
            .ok_or_else(|| std::io::Error::other(format!("no key: {status} {body}")))
    }

    /// Submits the demo contact form with `message` under `key`; the answer's status.
    pub async fn submit(&self, address: &str, key: &str, message: &str) -> std::io::Result<u16> {
        Ok(self.submit_answer(address, key, message).await?.0)
    }

    /// [`Self::submit`], with the answer's body.
    pub async fn submit_answer(
        &self,
        address: &str,
        key: &str,
        message: &str,
    ) -> std::io::Result<(u16, String)> {
        let form = format!(
            r#"{{"name":["Ada","Lovelace"],"email":"ada@example.com","subject":"Workshops","message":"{message}"}}"#
        );
        let body = url_encode(&[
            ("key", key),
            ("formId", "contact"),
            ("collectionId", "contact"),
            ("objectName", ""),
            ("isOverlayForm", "false"),
            ("submitButtonText", "Send message"),
            ("form", &form),
        ]);
        self.post(address, "/api/form/SaveFormSubmission", &body)
            .await
    }
}

fn url_encode(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(name, value)| format!("{}={}", escape(name), escape(value)))
        .collect::<Vec<_>>()
        .join("&")
}

fn escape(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (byte as char).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

/// Sends one raw request to `address` and reads the answer to its end: status and body.
async fn exchange(address: &str, request: &str) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect(address).await?;
    stream.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no HTTP answer: {answer:?}")))?;
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    Ok((status, body))
}

/// A page as an anonymous visitor asks for it: status and body.
pub async fn get(address: &str, path: &str) -> std::io::Result<(u16, String)> {
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    exchange(address, &request).await
}
