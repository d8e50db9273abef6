//! The web page's files, embedded in the binary.

/// One embedded file.
#[derive(Debug, Clone, Copy)]
pub struct Asset {
    /// Its media type.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

/// The file served at `path`.
pub fn asset(path: &str) -> Option<Asset> {
    match path {
        "/" | "/index.html" => Some(Asset {
            content_type: "text/html; charset=utf-8",
            body: b"<!doctype html><title>battle-server</title>",
        }),
        _ => None,
    }
}
