//! The browser build's start: the app on the page's canvas, with what the page's address
//! asks for, the page's server by default, and (for the browser test) the widgets on show.
//!
//! The address takes the desktop's flags as its query: `?server=URL`, `?game=ID`,
//! `?watch=ID`, `?replay=ID`, `?lang=es`. `?automation` publishes the accessibility tree
//! egui builds (each widget's role, label and place, every frame) as JSON in
//! `window.trincheraWidgets`, so that a test can find and click widgets by their labels as
//! egui_kittest does natively.

use eframe::egui;
use trinchera_client::{Lang, Store, Trust};
use wasm_bindgen::JsCast;

use crate::app::DEFAULT_SERVER;
use crate::board::Look;
use crate::platform::page;
use crate::settings::{LANG_KEY, LOOK_KEY};
use crate::{App, OpenAtStart, Options};

/// The id of the page's canvas (`web/index.html`).
const CANVAS: &str = "trinchera";
/// The id of the page's text shown while the app loads, replaced by a failure's words.
const LOADING: &str = "loading";
/// The global the widgets are published in, with `?automation`.
const WIDGETS: &str = "trincheraWidgets";

/// Starts the app on the page's canvas.
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let document = web_sys::window().and_then(|window| window.document());
        let Some(document) = document else {
            return;
        };
        let canvas = document
            .get_element_by_id(CANVAS)
            .and_then(|element| element.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        let Some(canvas) = canvas else {
            return;
        };
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(|cc| Ok(Box::new(app(cc)))),
            )
            .await;
        if let Some(loading) = document.get_element_by_id(LOADING) {
            match started {
                Ok(()) => loading.remove(),
                Err(error) => loading.set_text_content(Some(&format!(
                    "Trinchera cannot start in this browser: {error:?}"
                ))),
            }
        }
    });
}

/// The app as the page's address and the browser's storage ask for.
fn app(cc: &eframe::CreationContext<'_>) -> App {
    let server = page::query("server")
        .or_else(page::origin)
        .unwrap_or_else(|| DEFAULT_SERVER.to_owned());
    let open = match (
        page::query("game"),
        page::query("watch"),
        page::query("replay"),
    ) {
        (Some(game), _, _) => Some(OpenAtStart::Game {
            game,
            spectate: false,
        }),
        (None, Some(game), _) => Some(OpenAtStart::Game {
            game,
            spectate: true,
        }),
        (None, None, Some(game)) => Some(OpenAtStart::Replay(game)),
        (None, None, None) => None,
    };
    let stored = |key: &str| cc.storage.and_then(|s| s.get_string(key));
    let lang = page::query("lang")
        .or_else(|| stored(LANG_KEY))
        .and_then(|code| Lang::of_code(&code))
        .unwrap_or_else(Lang::of_system);
    let look = stored(LOOK_KEY)
        .map(|text| Look::of_setting(&text))
        .unwrap_or_default();
    let store = Store::browser();
    if page::flag("automation") {
        cc.egui_ctx.enable_accesskit();
        cc.egui_ctx.add_plugin(Widgets);
    }
    App::new(
        &cc.egui_ctx,
        Options {
            server,
            open,
            store,
            lang,
            look,
            trust: Trust::default(),
        },
    )
}

/// Publishes egui's accessibility tree of every frame in `window.trincheraWidgets`.
struct Widgets;

impl egui::Plugin for Widgets {
    fn debug_name(&self) -> &'static str {
        "trinchera widgets for tests"
    }

    fn output_hook(&mut self, _ctx: &egui::Context, output: &mut egui::FullOutput) {
        let Some(update) = &output.platform_output.accesskit_update else {
            return;
        };
        // A control named by a label beside it (`labelled_by`) is given that label's words,
        // as a screen reader (and egui_kittest) reads it.
        let words: std::collections::HashMap<_, _> = update
            .nodes
            .iter()
            .filter_map(|(id, node)| Some((*id, node.label().or_else(|| node.value())?)))
            .collect();
        let widgets: Vec<serde_json::Value> = update
            .nodes
            .iter()
            .filter_map(|(id, node)| {
                let bounds = node.bounds()?;
                let label = node.label().map_or_else(
                    || {
                        let named: Vec<&str> = node
                            .labelled_by()
                            .iter()
                            .filter_map(|id| words.get(id).copied())
                            .collect();
                        named.join(" ")
                    },
                    str::to_owned,
                );
                Some(serde_json::json!({
                    "role": format!("{:?}", node.role()),
                    "label": label,
                    "value": node.value().unwrap_or_default(),
                    "disabled": node.is_disabled(),
                    "focused": *id == update.focus,
                    "x": (bounds.x0 + bounds.x1) / 2.0,
                    "y": (bounds.y0 + bounds.y1) / 2.0,
                    "width": bounds.x1 - bounds.x0,
                    "height": bounds.y1 - bounds.y0,
                }))
            })
            .collect();
        let text = serde_json::Value::Array(widgets).to_string();
        if let Some(window) = web_sys::window() {
            let _ = js_sys::Reflect::set(
                &window,
                &wasm_bindgen::JsValue::from_str(WIDGETS),
                &wasm_bindgen::JsValue::from_str(&text),
            );
        }
    }
}
