//! What differs between the desktop and the browser, each behind one small seam, so that
//! the screens are the same code on both: where the network worker runs (a thread with its
//! own tokio runtime, or the page's event loop), how it spawns and sleeps, and what a web
//! page brings (its origin, its query, files to upload and download, see [`files`]).

use std::future::Future;
use std::time::Duration;

use futures_util::future::{AbortHandle, Abortable};

/// A task of the network worker, which can be stopped.
#[derive(Debug)]
pub struct Task(AbortHandle);

impl Task {
    /// Stops the task at its next await.
    pub fn abort(&self) {
        self.0.abort();
    }
}

/// Runs `work` on the network worker; the task can be stopped.
#[cfg(not(target_arch = "wasm32"))]
pub fn spawn(work: impl Future<Output = ()> + Send + 'static) -> Task {
    let (handle, registration) = AbortHandle::new_pair();
    tokio::spawn(Abortable::new(work, registration));
    Task(handle)
}

/// Runs `work` on the page's event loop; the task can be stopped.
#[cfg(target_arch = "wasm32")]
pub fn spawn(work: impl Future<Output = ()> + 'static) -> Task {
    let (handle, registration) = AbortHandle::new_pair();
    wasm_bindgen_futures::spawn_local(async move {
        let _ = Abortable::new(work, registration).await;
    });
    Task(handle)
}

/// Waits `duration` on the network worker.
#[cfg(not(target_arch = "wasm32"))]
pub async fn sleep(duration: Duration) {
    tokio::time::sleep(duration).await;
}

/// Waits `duration` (the browser's `setTimeout`).
#[cfg(target_arch = "wasm32")]
pub async fn sleep(duration: Duration) {
    let millis = i32::try_from(duration.as_millis()).unwrap_or(i32::MAX);
    let timer = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, millis);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(timer).await;
}

/// Starts the network worker: `serve(ready)` is made and run on a thread of its own with a
/// single-threaded tokio runtime; if no runtime can be made, `failed` is told why.
#[cfg(not(target_arch = "wasm32"))]
pub fn start_worker<F>(
    serve: impl FnOnce() -> F + Send + 'static,
    failed: impl FnOnce(String) + Send + 'static,
) where
    F: Future<Output = ()>,
{
    let started = std::thread::Builder::new()
        .name("trinchera-network".into())
        .spawn(move || {
            match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime.block_on(serve()),
                Err(error) => failed(error.to_string()),
            }
        });
    if let Err(error) = started {
        eprintln!("trinchera-gui: cannot start the network thread: {error}");
    }
}

/// Starts the network worker on the page's event loop (a page has no threads).
#[cfg(target_arch = "wasm32")]
pub fn start_worker<F>(serve: impl FnOnce() -> F + 'static, _failed: impl FnOnce(String))
where
    F: Future<Output = ()> + 'static,
{
    wasm_bindgen_futures::spawn_local(serve());
}

/// The page the app runs in: where it came from and what its address asks for.
#[cfg(target_arch = "wasm32")]
pub mod page {
    /// The page's origin (`https://host:port`): the server that served it, and so the
    /// default server of the app.
    pub fn origin() -> Option<String> {
        web_sys::window()?.location().origin().ok()
    }

    /// The page address's query (`?game=12&lang=es`).
    fn params() -> Option<web_sys::UrlSearchParams> {
        let search = web_sys::window()?.location().search().ok()?;
        web_sys::UrlSearchParams::new_with_str(&search).ok()
    }

    /// The value of `key` in the page address's query, unless empty.
    pub fn query(key: &str) -> Option<String> {
        params()?.get(key).filter(|value| !value.is_empty())
    }

    /// Whether the page address's query names `key` (`?automation`).
    pub fn flag(key: &str) -> bool {
        params().is_some_and(|params| params.has(key))
    }
}

/// Files a person hands the app or takes from it: on a desktop by their path (typed in a
/// field); in a browser by upload (a file picker) and download.
#[cfg(target_arch = "wasm32")]
pub mod files {
    use std::sync::{Arc, Mutex};

    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    /// A file the person picked, once the browser has read it: its name and text, or why
    /// it could not be read.
    pub type Picked = Arc<Mutex<Option<Result<(String, String), String>>>>;

    /// Asks the person for a text file (the browser's file picker); `ctx` is woken when it
    /// has been read into the returned slot.
    pub fn pick(ctx: &eframe::egui::Context) -> Picked {
        let slot: Picked = Arc::default();
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return slot;
        };
        let Ok(input) = document
            .create_element("input")
            .map(|element| element.unchecked_into::<web_sys::HtmlInputElement>())
        else {
            return slot;
        };
        input.set_type("file");
        input.set_accept(".txt,.json,text/plain,application/json");
        let (chosen, ctx) = (Arc::clone(&slot), ctx.clone());
        let picker = input.clone();
        let on_change = Closure::once(move || {
            let Some(file) = picker.files().and_then(|files| files.get(0)) else {
                return;
            };
            let name = file.name();
            wasm_bindgen_futures::spawn_local(async move {
                let read = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                let text = read
                    .ok()
                    .and_then(|text| text.as_string())
                    .ok_or_else(|| format!("cannot read {name}"));
                if let Ok(mut chosen) = chosen.lock() {
                    *chosen = Some(text.map(|text| (name, text)));
                }
                ctx.request_repaint();
            });
        });
        input.set_onchange(Some(on_change.as_ref().unchecked_ref()));
        on_change.forget();
        input.click();
        slot
    }

    /// Offers `text` to the person as a download named `name`.
    pub fn download(name: &str, text: &str) -> Result<(), String> {
        let failed = |what: &str| format!("cannot offer {name} for download: {what}");
        let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
        let options = web_sys::BlobPropertyBag::new();
        options.set_type("text/plain;charset=utf-8");
        let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
            .map_err(|_| failed("no blob"))?;
        let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| failed("no URL"))?;
        let document = web_sys::window()
            .and_then(|w| w.document())
            .ok_or_else(|| failed("no document"))?;
        let link = document
            .create_element("a")
            .map_err(|_| failed("no link"))?
            .unchecked_into::<web_sys::HtmlAnchorElement>();
        link.set_href(&url);
        link.set_download(name);
        link.click();
        let _ = web_sys::Url::revoke_object_url(&url);
        Ok(())
    }
}
