//! The browser build's start: the app on the page's canvas, with what the page's address
//! asks for, the page's server by default, and (for the browser test) the widgets on show.
//!
//! The address takes the desktop's flags as its query: `?server=URL`, `?game=ID`,
//! `?watch=ID`, `?replay=ID`, `?lang=es`. `?automation` publishes the accessibility tree
//! egui builds (each widget's role, label and place, every frame) as JSON in
//! `window.trincheraWidgets`, so that a test can find and click widgets by their labels as
//! egui_kittest does natively.

use eframe::egui;
use trinchera_client::{Lang, Store, Trust, tr};
use wasm_bindgen::JsCast;

use crate::app::DEFAULT_SERVER;
use crate::platform::page;
use crate::settings::Kept;
use crate::{App, OpenAtStart, Options};

/// The id of the page's canvas (`web/index.html`).
const CANVAS: &str = "trinchera";
/// The id of the page's text shown while the app loads, replaced by a failure's words.
const LOADING: &str = "loading";
/// The global the widgets are published in, with `?automation`.
const WIDGETS: &str = "trincheraWidgets";
/// Where the desktop client is told of: the README's part on it, in the repository.
const DESKTOP_CLIENT: &str = concat!(
    env!("CARGO_PKG_REPOSITORY"),
    "#play-with-the-mouse-trinchera-gui"
);

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
                Err(error) => {
                    let error = error.as_string().unwrap_or_else(|| format!("{error:?}"));
                    cannot_start(&document, &loading, page_lang(), &error);
                }
            }
        }
    });
}

/// The language of the page: its address's `?lang=`, else the browser's.
fn page_lang() -> Lang {
    page::query("lang")
        .and_then(|code| Lang::of_code(&code))
        .unwrap_or_else(Lang::of_system)
}

/// Says in `place`, in `lang`, that the app cannot start, why (`error`, eframe's words) and
/// what to do: a browser without WebGL (hardware acceleration turned off, most often) is
/// told how to turn it on, and every failure points to the desktop client.
fn cannot_start(document: &web_sys::Document, place: &web_sys::Element, lang: Lang, error: &str) {
    let why = if error.contains("WebGL") {
        lang.pick(
            "It draws with WebGL, which this browser has turned off or does not have. Turn on \
             hardware acceleration (graphics acceleration) in the browser's settings and \
             reload this page, or open it in another browser.",
            "Dibuja con WebGL, que este navegador tiene desactivado o no tiene. Activa la \
             aceleración por hardware (aceleración gráfica) en la configuración del navegador \
             y recarga esta página, o ábrela en otro navegador.",
        )
        .to_owned()
    } else {
        tr!(
            lang,
            "It said: {error}. Reload this page, or open it in another browser.",
            "Dijo: {error}. Recarga esta página, o ábrela en otro navegador."
        )
    };
    let lines = [
        lang.pick(
            "Trinchera cannot start in this browser.",
            "Trinchera no puede arrancar en este navegador.",
        ),
        &why,
        lang.pick(
            "Or play with the desktop client: ",
            "O juega con el cliente de escritorio: ",
        ),
    ];
    place.set_text_content(None);
    for (number, line) in lines.into_iter().enumerate() {
        let tag = if number == 0 { "strong" } else { "p" };
        if let Ok(element) = document.create_element(tag) {
            element.set_text_content(Some(line));
            let _ = place.append_child(&element);
        }
    }
    let link = document.create_element("a");
    if let (Ok(link), Some(last)) = (link, place.last_element_child()) {
        let _ = link.set_attribute("href", DESKTOP_CLIENT);
        link.set_text_content(Some("trinchera-gui"));
        let _ = last.append_child(&link);
    }
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
    let kept = Kept::read(cc.storage);
    let lang = page::query("lang")
        .and_then(|code| Lang::of_code(&code))
        .or(kept.lang)
        .unwrap_or_else(Lang::of_system);
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
            look: kept.look,
            form: kept.form,
            guest: kept.guest,
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
