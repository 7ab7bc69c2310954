//! The decision tools' pure parts: state in the URL, offers and HTML, tested natively (the
//! views in `ui::tools` stay thin).

pub mod cloud;
