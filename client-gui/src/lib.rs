//! `trinchera-gui`: the desktop and browser client of a Trinchera game server (eframe).
//!
//! A thin client of the public API: every board is drawn from `ListRulesets`, every action
//! offered comes from `GameView.legal_moves`. The UI never waits on the network: the
//! [`backend`] worker does every call and stream and wakes the UI when a reply arrives.
//! The browser build is the same code compiled to WebAssembly; what differs (the worker's
//! home, files, the page's address) is behind the small seams of [`platform`]. App
//! state is a plain struct ([`app::App`]); each screen ([`connect`], [`sign_in`],
//! [`lobby`], [`game`], [`replay`]) owns its state, draws itself and returns [`action::Action`]s that the app
//! applies. The view functions take data ([`board::board_ui`]), so tests render them
//! headless with egui_kittest.

pub mod account;
pub mod action;
pub mod app;
pub mod backend;
pub mod board;
pub mod connect;
pub mod connection;
pub mod failure;
pub mod game;
pub mod help;
pub mod i18n;
pub mod layout;
pub mod lobby;
pub mod moves;
pub mod palette;
pub mod platform;
pub mod replay;
pub mod rules;
pub mod settings;
pub mod setup;
pub mod shelf;
pub mod shelf_ui;
pub mod sign_in;
pub mod status;
pub mod top_bar;
#[cfg(target_arch = "wasm32")]
pub mod web;
#[cfg(not(target_arch = "wasm32"))]
pub mod window;

pub use app::{App, OpenAtStart, Options};
