//! The browser client served by the server itself (`--web`): the bundle of `trinchera-gui`
//! built for WebAssembly (`client-gui/web/build.sh`), embedded at build time when it was
//! built first, or read from `--web-root`. On the gRPC port, [`SiteLayer`] answers every
//! GET and HEAD (gRPC and gRPC-web calls are POSTs, CORS preflights OPTIONS) with the
//! file's MIME type, gzipped when the browser takes it, and an ETag, so that a reload costs
//! a `304 Not Modified` (the file names carry no hashes, so every file is revalidated:
//! `Cache-Control: no-cache`).

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use sha2::{Digest, Sha256};
use tonic::codegen::http::{HeaderMap, HeaderValue, Method, Response, StatusCode, header};

/// A file of the bundle embedded at build time: its name, bytes and gzipped bytes.
type Embedded = (&'static str, &'static [u8], Option<&'static [u8]>);

include!(concat!(env!("OUT_DIR"), "/web_bundle.rs"));

/// The page every path without a file of its own gets (the app reads its query).
const INDEX: &str = "index.html";

/// How to get a bundle when there is none.
pub const BUILD_HINT: &str = "build the browser client first (client-gui/web/build.sh; \
    then rebuild the server to embed it), or point web.root (--web-root) at a built bundle";

/// Why the bundle cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// This server was built without a bundle and none was given.
    #[error(
        "web.enabled (--web) needs the browser client, which this build does not hold: {BUILD_HINT}"
    )]
    NoBundle,
    /// The bundle directory cannot be read or has no index.html.
    #[error("web.root {}: {problem}; {BUILD_HINT}", .dir.display())]
    Unreadable {
        /// The directory.
        dir: PathBuf,
        /// What is wrong.
        problem: String,
    },
}

/// One file of the bundle.
#[derive(Debug)]
struct Asset {
    body: bytes::Bytes,
    /// The gzipped twin, with its own ETag (a cache must not give one for the other).
    gzip: Option<(bytes::Bytes, HeaderValue)>,
    mime: &'static str,
    etag: HeaderValue,
}

impl Asset {
    /// The file `name` with `body`, and `gzip` as its twin if that is the gzip of `body`
    /// (a twin that is not is left out, with a warning: the file is served uncompressed).
    fn new(name: &str, body: bytes::Bytes, gzip: Option<bytes::Bytes>) -> Asset {
        let digest = hex::encode(&Sha256::digest(&body)[..12]);
        let tag =
            |text: String| HeaderValue::from_str(&text).unwrap_or(HeaderValue::from_static("\"\""));
        let gzip = gzip.filter(|gzip| {
            let matches = gunzipped(gzip).is_some_and(|plain| plain == body);
            if !matches {
                tracing::warn!(
                    file = name,
                    "{name}.gz is not the gzip of {name}: not served"
                );
            }
            matches
        });
        Asset {
            gzip: gzip.map(|gzip| (gzip, tag(format!("\"{digest}-gzip\"")))),
            body,
            mime: mime(name),
            etag: tag(format!("\"{digest}\"")),
        }
    }
}

/// `bytes` decompressed, if they are gzip.
fn gunzipped(bytes: &[u8]) -> Option<Vec<u8>> {
    use std::io::Read as _;
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut plain)
        .ok()?;
    Some(plain)
}

/// Whether `path` is a regular file itself (not a link to one, which could lead out of the
/// bundle's directory).
fn regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_file())
}

/// The browser client's files, by name.
#[derive(Debug)]
pub struct Bundle {
    files: HashMap<String, Asset>,
}

impl Bundle {
    /// The bundle embedded in this build, if it was built first.
    pub fn embedded() -> Option<Bundle> {
        let files: HashMap<String, Asset> = EMBEDDED
            .iter()
            .map(|&(name, body, gzip)| {
                let asset = Asset::new(
                    name,
                    bytes::Bytes::from_static(body),
                    gzip.map(bytes::Bytes::from_static),
                );
                (name.to_owned(), asset)
            })
            .collect();
        files.contains_key(INDEX).then_some(Bundle { files })
    }

    /// The bundle in `dir`: every regular file (links are not followed), with its `.gz`
    /// twin where there is one.
    pub fn read(dir: &Path) -> Result<Bundle, WebError> {
        let unreadable = |problem: String| WebError::Unreadable {
            dir: dir.to_owned(),
            problem,
        };
        let entries = std::fs::read_dir(dir).map_err(|e| unreadable(e.to_string()))?;
        let mut files = HashMap::new();
        for entry in entries {
            let entry = entry.map_err(|e| unreadable(e.to_string()))?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if name.ends_with(".gz") || !regular(&entry.path()) {
                continue;
            }
            let body = std::fs::read(entry.path()).map_err(|e| unreadable(e.to_string()))?;
            let twin = dir.join(format!("{name}.gz"));
            let gzip = regular(&twin).then(|| std::fs::read(&twin).ok()).flatten();
            let asset = Asset::new(&name, body.into(), gzip.map(Into::into));
            files.insert(name, asset);
        }
        if !files.contains_key(INDEX) {
            return Err(unreadable(format!("no {INDEX} in it")));
        }
        Ok(Bundle { files })
    }

    /// The bundle a server with `root` (empty: none) serves: that directory's, else the
    /// embedded one.
    pub fn load(root: &str) -> Result<Arc<Bundle>, WebError> {
        let bundle = if root.is_empty() {
            Bundle::embedded().ok_or(WebError::NoBundle)?
        } else {
            Bundle::read(Path::new(root))?
        };
        Ok(Arc::new(bundle))
    }

    /// Its size: files, bytes, gzipped bytes (of the files that have a gzipped twin, the
    /// twin's size; of the others, their own).
    pub fn size(&self) -> (usize, usize, usize) {
        let bytes = self.files.values().map(|a| a.body.len()).sum();
        let gzipped = self
            .files
            .values()
            .map(|a| a.gzip.as_ref().map_or(a.body.len(), |(gzip, _)| gzip.len()))
            .sum();
        (self.files.len(), bytes, gzipped)
    }

    /// The answer to a request of `method` for `path` with `headers`.
    pub fn respond(&self, method: &Method, path: &str, headers: &HeaderMap) -> Response<Body> {
        if method != Method::GET && method != Method::HEAD {
            return plain(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD");
        }
        let name = path.trim_start_matches('/');
        // A path with no file of its own and no extension is a page of the app.
        let name = match name {
            "" => INDEX,
            name if !self.files.contains_key(name) && !name.contains('.') => INDEX,
            name => name,
        };
        let Some(asset) = self.files.get(name) else {
            return plain(StatusCode::NOT_FOUND, "no such file");
        };
        let (body, etag, builder) = match &asset.gzip {
            Some((gzip, etag)) if accepts_gzip(headers) => (
                gzip,
                etag,
                Response::builder().header(header::CONTENT_ENCODING, "gzip"),
            ),
            _ => (&asset.body, &asset.etag, Response::builder()),
        };
        let builder = builder
            .header(header::CONTENT_TYPE, asset.mime)
            .header(header::CACHE_CONTROL, "no-cache")
            .header(header::ETAG, etag.clone())
            .header(header::VARY, "Accept-Encoding")
            .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
            // No other site may show the page in a frame (clickjacking).
            .header(header::CONTENT_SECURITY_POLICY, "frame-ancestors 'none'")
            .header(header::X_FRAME_OPTIONS, "DENY");
        let seen = headers
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .any(|tag| tag.trim() == etag || tag.trim() == "*");
        if seen {
            return builder
                .status(StatusCode::NOT_MODIFIED)
                .body(Body::empty())
                .unwrap_or_else(|_| plain(StatusCode::INTERNAL_SERVER_ERROR, "response"));
        }
        let body = body.clone();
        let builder = builder.header(header::CONTENT_LENGTH, body.len());
        let body = if method == Method::HEAD {
            Body::empty()
        } else {
            Body::from(body)
        };
        builder
            .status(StatusCode::OK)
            .body(body)
            .unwrap_or_else(|_| plain(StatusCode::INTERNAL_SERVER_ERROR, "response"))
    }
}

/// The layer that puts the browser client in front of the gRPC services.
#[derive(Clone, Debug)]
pub struct SiteLayer(pub Arc<Bundle>);

impl<S> tower::Layer<S> for SiteLayer {
    type Service = Site<S>;

    fn layer(&self, inner: S) -> Site<S> {
        Site {
            bundle: Arc::clone(&self.0),
            inner,
        }
    }
}

/// Answers GET and HEAD from the bundle, and passes every other request on.
#[derive(Clone, Debug)]
pub struct Site<S> {
    bundle: Arc<Bundle>,
    inner: S,
}

/// The future of a [`Site`] call.
type SiteFuture<E> = Pin<Box<dyn Future<Output = Result<Response<tonic::body::Body>, E>> + Send>>;

impl<S, B> tower::Service<tonic::codegen::http::Request<B>> for Site<S>
where
    S: tower::Service<tonic::codegen::http::Request<B>, Response = Response<tonic::body::Body>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = SiteFuture<S::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: tonic::codegen::http::Request<B>) -> Self::Future {
        if request.method() == Method::GET || request.method() == Method::HEAD {
            let response = self
                .bundle
                .respond(request.method(), request.uri().path(), request.headers())
                .map(tonic::body::Body::new);
            return Box::pin(std::future::ready(Ok(response)));
        }
        Box::pin(self.inner.call(request))
    }
}

/// Whether the request's `Accept-Encoding` takes gzip.
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or_default().trim();
            let refused = parts.any(|p| p.trim().replace(' ', "") == "q=0");
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// A short plain-text answer.
fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    let mut response = Response::new(Body::from(text));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// The MIME type of a bundle file, by its extension.
fn mime(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        use std::io::Write as _;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(bytes).expect("compresses");
        encoder.finish().expect("compresses")
    }

    const WASM: &[u8] = b"\0asm";

    fn bundle() -> Bundle {
        let temp = tempfile::tempdir().expect("temp dir");
        std::fs::write(temp.path().join("index.html"), "<html>app</html>").expect("written");
        std::fs::write(temp.path().join("app.wasm"), WASM).expect("written");
        std::fs::write(temp.path().join("app.wasm.gz"), gzip(WASM)).expect("written");
        Bundle::read(temp.path()).expect("a bundle")
    }

    fn get(
        bundle: &Bundle,
        path: &str,
        headers: &[(&'static str, &'static str)],
    ) -> Response<Body> {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(*name, HeaderValue::from_static(value));
        }
        bundle.respond(&Method::GET, path, &map)
    }

    #[test]
    fn files_come_with_their_types_gzip_when_taken_and_304_when_seen() {
        let bundle = bundle();
        let zipped = gzip(WASM).len();
        assert_eq!(bundle.size(), (2, 20, 16 + zipped));
        let index = get(&bundle, "/", &[]);
        assert_eq!(index.status(), StatusCode::OK);
        assert_eq!(
            index.headers()[header::CONTENT_TYPE],
            "text/html; charset=utf-8"
        );
        assert_eq!(index.headers()[header::CACHE_CONTROL], "no-cache");
        // A page of the app, with its query, is the index too.
        assert_eq!(get(&bundle, "/lobby", &[]).status(), StatusCode::OK);
        let wasm = get(&bundle, "/app.wasm", &[("accept-encoding", "br, gzip")]);
        assert_eq!(wasm.headers()[header::CONTENT_TYPE], "application/wasm");
        assert_eq!(wasm.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(wasm.headers()[header::CONTENT_LENGTH], zipped.to_string());
        let plain = get(&bundle, "/app.wasm", &[("accept-encoding", "gzip;q=0")]);
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        assert_ne!(
            plain.headers()[header::ETAG],
            wasm.headers()[header::ETAG],
            "each encoding has its own ETag"
        );
        let etag = wasm.headers()[header::ETAG]
            .to_str()
            .expect("ascii")
            .to_owned();
        let mut map = HeaderMap::new();
        map.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&etag).expect("ascii"),
        );
        map.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("gzip"));
        let again = bundle.respond(&Method::GET, "/app.wasm", &map);
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        let unzipped = bundle.respond(&Method::GET, "/app.wasm", &map_without_gzip(&map));
        assert_eq!(
            unzipped.status(),
            StatusCode::OK,
            "the gzip's tag is not the file's"
        );
        assert_eq!(
            get(&bundle, "/missing.js", &[]).status(),
            StatusCode::NOT_FOUND
        );
        let post = bundle.respond(&Method::POST, "/", &HeaderMap::new());
        assert_eq!(post.status(), StatusCode::METHOD_NOT_ALLOWED);
    }

    fn map_without_gzip(map: &HeaderMap) -> HeaderMap {
        let mut map = map.clone();
        map.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("identity"),
        );
        map
    }

    #[test]
    fn pages_may_not_be_framed_by_other_sites() {
        let index = get(&bundle(), "/", &[]);
        assert_eq!(
            index.headers()[header::CONTENT_SECURITY_POLICY],
            "frame-ancestors 'none'"
        );
        assert_eq!(index.headers()[header::X_FRAME_OPTIONS], "DENY");
    }

    #[cfg(unix)]
    #[test]
    fn links_and_twins_that_are_not_the_gzip_of_their_file_are_not_served() {
        let outside = tempfile::tempdir().expect("temp dir");
        let secret = outside.path().join("secret.txt");
        std::fs::write(&secret, "not for the web").expect("written");
        let temp = tempfile::tempdir().expect("temp dir");
        let root = temp.path();
        std::fs::write(root.join("index.html"), "<html>app</html>").expect("written");
        std::os::unix::fs::symlink(&secret, root.join("leak.txt")).expect("linked");
        std::fs::write(root.join("app.js"), "js").expect("written");
        std::os::unix::fs::symlink(&secret, root.join("app.js.gz")).expect("linked");
        std::fs::write(root.join("style.css"), "css").expect("written");
        std::fs::write(root.join("style.css.gz"), gzip(b"other")).expect("written");
        let bundle = Bundle::read(root).expect("a bundle");
        assert_eq!(
            get(&bundle, "/leak.txt", &[]).status(),
            StatusCode::NOT_FOUND
        );
        for file in ["/app.js", "/style.css"] {
            let served = get(&bundle, file, &[("accept-encoding", "gzip")]);
            assert_eq!(served.status(), StatusCode::OK);
            assert!(
                served.headers().get(header::CONTENT_ENCODING).is_none(),
                "{file}: its twin is not served"
            );
        }
    }

    #[test]
    fn a_directory_without_an_index_is_refused_with_the_way_to_build_one() {
        let temp = tempfile::tempdir().expect("temp dir");
        let error = Bundle::read(temp.path()).expect_err("no index");
        assert!(
            error.to_string().contains("client-gui/web/build.sh"),
            "{error}"
        );
    }
}
