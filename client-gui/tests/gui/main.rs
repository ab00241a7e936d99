//! The desktop client against a real server, driven headless with egui_kittest: every
//! click lands on a widget found by its accessible label.

mod accounts;
mod boards;
mod clocks;
mod connect;
mod docs;
mod form;
mod harness;
mod language;
mod live;
mod narrow;
mod play;
mod replays;
mod setups;
mod top_bar;
