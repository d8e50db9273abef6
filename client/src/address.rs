//! Server addresses as people type them, and telling "nobody listens there" apart from
//! other connection failures.

use tokio_tungstenite::tungstenite;

/// Read a `--server` value: a `ws://` or `wss://` URL as given, `http(s)://` turned into
/// `ws(s)://`, and `HOST:PORT` or a bare `PORT` (127.0.0.1) given the `ws://` scheme.
pub fn server_url(text: &str) -> Result<String, String> {
    let text = text.trim().trim_end_matches('/');
    if text.is_empty() {
        return Err("the server address is empty; give HOST:PORT or ws://HOST:PORT".to_owned());
    }
    if let Some((scheme, rest)) = text.split_once("://") {
        let scheme = match scheme.to_ascii_lowercase().as_str() {
            "ws" | "http" => "ws",
            "wss" | "https" => "wss",
            other => {
                return Err(format!(
                    "\"{other}://\" is not a WebSocket address; give ws://HOST:PORT or HOST:PORT"
                ))
            }
        };
        if rest.is_empty() {
            return Err(format!("\"{text}\" names no host"));
        }
        return Ok(format!("{scheme}://{rest}"));
    }
    if text.parse::<u16>().is_ok() {
        return Ok(format!("ws://127.0.0.1:{text}"));
    }
    if let Some(port) = text.strip_prefix(':') {
        return Ok(format!("ws://127.0.0.1:{port}"));
    }
    Ok(format!("ws://{text}"))
}

/// Whether `err` says that nothing listens at the address (connection refused).
pub fn is_refused(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::ConnectionRefused {
                return true;
            }
        }
        if let Some(tungstenite::Error::Io(io)) = e.downcast_ref::<tungstenite::Error>() {
            if io.kind() == std::io::ErrorKind::ConnectionRefused {
                return true;
            }
        }
        cause = e.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses_get_their_scheme() {
        let ok = |t: &str| server_url(t).expect("valid");
        assert_eq!(ok("ws://127.0.0.1:7878"), "ws://127.0.0.1:7878");
        assert_eq!(ok("localhost:7878"), "ws://localhost:7878");
        assert_eq!(ok("http://host:1/"), "ws://host:1");
        assert_eq!(ok("HTTPS://host:1"), "wss://host:1");
        assert_eq!(ok("7000"), "ws://127.0.0.1:7000");
        assert_eq!(ok(":7000"), "ws://127.0.0.1:7000");
        assert!(server_url("ftp://x")
            .unwrap_err()
            .contains("not a WebSocket"));
        assert!(server_url(" ").is_err());
    }

    #[test]
    fn refused_connections_are_recognised_through_wrappers() {
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let err = crate::ClientError::WebSocket(tungstenite::Error::Io(io));
        assert!(is_refused(&err));
        let wrapped = anyhow::Error::from(err).context("listing battles");
        assert!(is_refused(wrapped.as_ref()));
        let other = crate::ClientError::Timeout(std::time::Duration::from_secs(1));
        assert!(!is_refused(&other));
    }
}
