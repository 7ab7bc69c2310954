//! Named scenarios for the chapters' `{r:NAME:PATH:SCALE:DECIMALS}` placeholders (names start
//! with the chapter's slug).

pub static SCENARIOS: &[(&str, &str)] = &[];
