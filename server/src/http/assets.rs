//! The web page's files, built into the binary: the battle page (`server/web/`: the HTML, its
//! style sheet and its JavaScript modules, the boards in `boards/`), each with the content
//! type it is served with. [`asset`] maps a request path to a file; anything else is not ours
//! to answer. (`server/web/types.d.ts` only describes the modules' shapes for the type check:
//! it is not served.)

/// One file of the page, as it is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    /// The `Content-Type` header's value.
    pub content_type: &'static str,
    /// The file's bytes, as they are in `server/web/`.
    pub body: &'static [u8],
}

/// HTML, for the page itself.
const HTML: &str = "text/html; charset=utf-8";
/// The style sheet.
const CSS: &str = "text/css; charset=utf-8";
/// The ES modules.
const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the page by its path (`/` is the page too, see [`asset`]).
const FILES: &[(&str, Asset)] = &[
    (
        "/index.html",
        file(HTML, include_bytes!("../../web/index.html")),
    ),
    (
        "/style.css",
        file(CSS, include_bytes!("../../web/style.css")),
    ),
    ("/app.js", file(JS, include_bytes!("../../web/app.js"))),
    (
        "/battle.js",
        file(JS, include_bytes!("../../web/battle.js")),
    ),
    (
        "/boards.js",
        file(JS, include_bytes!("../../web/boards.js")),
    ),
    (
        "/boards/gambit.js",
        file(JS, include_bytes!("../../web/boards/gambit.js")),
    ),
    (
        "/boards/heroes.js",
        file(JS, include_bytes!("../../web/boards/heroes.js")),
    ),
    (
        "/boards/lore.js",
        file(JS, include_bytes!("../../web/boards/lore.js")),
    ),
    (
        "/boards/roguelite.js",
        file(JS, include_bytes!("../../web/boards/roguelite.js")),
    ),
    (
        "/boards/synergy.js",
        file(JS, include_bytes!("../../web/boards/synergy.js")),
    ),
    (
        "/choose.js",
        file(JS, include_bytes!("../../web/choose.js")),
    ),
    ("/conn.js", file(JS, include_bytes!("../../web/conn.js"))),
    ("/dom.js", file(JS, include_bytes!("../../web/dom.js"))),
    ("/lobby.js", file(JS, include_bytes!("../../web/lobby.js"))),
    ("/moves.js", file(JS, include_bytes!("../../web/moves.js"))),
    ("/parts.js", file(JS, include_bytes!("../../web/parts.js"))),
    ("/patch.js", file(JS, include_bytes!("../../web/patch.js"))),
    (
        "/replay.js",
        file(JS, include_bytes!("../../web/replay.js")),
    ),
    ("/stage.js", file(JS, include_bytes!("../../web/stage.js"))),
    ("/tree.js", file(JS, include_bytes!("../../web/tree.js"))),
    ("/words.js", file(JS, include_bytes!("../../web/words.js"))),
];

const fn file(content_type: &'static str, body: &'static [u8]) -> Asset {
    Asset { content_type, body }
}

/// The file served at `path` (the request target's path, without its query string): `/` and
/// `/index.html` give the page, `/app.js` and the other modules, `/style.css`. `None` for
/// any other path.
pub fn asset(path: &str) -> Option<Asset> {
    let path = if path == "/" { "/index.html" } else { path };
    FILES
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, asset)| *asset)
}

/// The paths [`asset`] answers, `/` aside (for listings and tests).
pub fn paths() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(name, _)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(asset: Asset) -> &'static str {
        std::str::from_utf8(asset.body).expect("the page's files are UTF-8 text")
    }

    #[test]
    fn the_page_is_served_at_the_root_and_by_name() {
        let root = asset("/").expect("the root is the page");
        assert_eq!(root, asset("/index.html").expect("the page by name"));
        assert_eq!(root.content_type, "text/html; charset=utf-8");
        assert!(text(root).contains("<script type=\"module\" src=\"./app.js\">"));
    }

    #[test]
    fn every_file_has_its_type() {
        for path in paths() {
            let found = asset(path).unwrap_or_else(|| panic!("{path} is listed but not found"));
            let want = match path.rsplit_once('.').map(|(_, ext)| ext) {
                Some("html") => HTML,
                Some("css") => CSS,
                Some("js") => JS,
                other => panic!("{path}: no type for the extension {other:?}"),
            };
            assert_eq!(found.content_type, want, "{path}");
            assert!(!found.body.is_empty(), "{path} is empty");
        }
        assert_eq!(asset("/style.css").map(|a| a.content_type), Some(CSS));
        assert_eq!(asset("/app.js").map(|a| a.content_type), Some(JS));
        assert_eq!(asset("/patch.js").map(|a| a.content_type), Some(JS));
    }

    #[test]
    fn unknown_paths_are_not_found() {
        for path in [
            "",
            "/nope.js",
            "/index.htm",
            "/app.js/",
            "//app.js",
            "/../server/web/app.js",
            "/web/app.js",
            "/APP.JS",
            "app.js",
            "/api/battles",
        ] {
            assert_eq!(asset(path), None, "{path:?}");
        }
    }

    /// The local files a file at `path` refers to (`import ... from "./x.js"` or `"../x.js"`,
    /// `src="./x.js"`, `href="./x.css"`), as paths from the page's root.
    fn local_imports(path: &str, source: &str) -> Vec<String> {
        let dir = &path[..path.rfind('/').map_or(0, |at| at + 1)];
        let mut found = Vec::new();
        for line in source.lines() {
            let line = line.trim();
            let spec = if line.starts_with("import ") || line.starts_with("} from ") {
                line.split(" from ").nth(1)
            } else if let Some(at) = line.find("src=").or_else(|| line.find("href=")) {
                line[at..].split_once('=').map(|(_, value)| value)
            } else {
                None
            };
            let Some(spec) = spec else { continue };
            let spec = spec.trim_start_matches(['"', '\'']);
            if !spec.starts_with("./") && !spec.starts_with("../") {
                continue;
            }
            let end = spec.find(['"', '\'']).unwrap_or(spec.len());
            found.push(resolve(dir, &spec[..end]));
        }
        found
    }

    /// `relative` (`./x.js`, `../x.js`) from the folder `dir` (`/`, `/boards/`).
    fn resolve(dir: &str, relative: &str) -> String {
        let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
        for part in relative.split('/') {
            match part {
                "." => {}
                ".." => {
                    parts.pop();
                }
                other => parts.push(other),
            }
        }
        format!("/{}", parts.join("/"))
    }

    #[test]
    fn every_module_the_page_imports_is_served() {
        let mut checked = 0;
        for path in paths() {
            let source = text(asset(path).expect("listed paths are found"));
            for import in local_imports(path, source) {
                let served = asset(&import)
                    .unwrap_or_else(|| panic!("{path} refers to {import}, which is not served"));
                if import.ends_with(".js") {
                    assert_eq!(served.content_type, JS, "{path} imports {import}");
                }
                checked += 1;
            }
        }
        assert!(
            checked >= 10,
            "only {checked} imports found: is the scan still right?"
        );
    }

    #[test]
    fn every_served_module_is_imported() {
        let imported: Vec<String> = paths()
            .flat_map(|path| {
                local_imports(path, text(asset(path).expect("listed paths are found")))
            })
            .collect();
        for path in paths().filter(|p| p.ends_with(".js")) {
            assert!(
                imported.iter().any(|i| i == path),
                "{path} is served but nothing imports it"
            );
        }
    }

    #[test]
    fn the_reference_scan_reads_every_form() {
        let source = "import { a } from \"./a.js\";\n  } from './b.js';\n<script type=\"module\" src=\"./c.js\"></script>\nimport x from \"other\";\n<link rel=\"stylesheet\" href=\"./d.css\">\n<link rel=\"icon\" href=\"data:,\">";
        assert_eq!(
            local_imports("/index.html", source),
            ["/a.js", "/b.js", "/c.js", "/d.css"]
        );
        let board = "import { h } from \"../dom.js\";\nimport * as x from \"./x.js\";";
        assert_eq!(
            local_imports("/boards/lore.js", board),
            ["/dom.js", "/boards/x.js"]
        );
    }

    #[test]
    fn every_file_of_the_web_folder_is_served() {
        let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut stack = vec![web.clone()];
        let mut seen = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("server/web can be read") {
                let path = entry.expect("a folder entry").path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let name = path
                    .strip_prefix(&web)
                    .expect("under server/web")
                    .to_str()
                    .expect("the page's file names are UTF-8")
                    .replace('\\', "/");
                if name.ends_with(".d.ts") {
                    continue;
                }
                let served = format!("/{name}");
                assert!(asset(&served).is_some(), "server/web/{name} is not served");
                seen += 1;
            }
        }
        assert_eq!(seen, paths().count(), "every served file is in server/web");
    }
}
