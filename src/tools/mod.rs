//! The decision tools' pure logic (state in the URL and its repair, the HTML they show), tested
//! natively; `ui::tools` mounts them.

pub mod diagnose;
