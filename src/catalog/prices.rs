//! Default prices: the cheapest dated on-demand price per GPU-hour in the instance catalog.

/// (catalog GPU id, USD per GPU-hour, source text) for every GPU id with a dated price:
/// `build.rs` picks, per GPU id, the instance of `instance_gpu_names.rs`'s model name with a
/// dated price and the lowest price per GPU (the test below checks the table against the typed
/// instance catalog), so the wasm carries neither `data/instances.json` nor its parser.
static PRICES: &[(&str, f64, &str)] = include!(concat!(env!("OUT_DIR"), "/prices.rs"));

/// The cheapest dated on-demand price per GPU-hour for a catalog GPU id, with its source text.
/// A team catalog's price for the GPU comes first ([`super::team`]).
pub fn default_price_per_gpu_hour(gpu_id: &str) -> Option<(f64, String)> {
    let team = super::team::get().and_then(|t| t.prices.iter().find(|(id, _, _)| id == gpu_id));
    if let Some((_, p, source)) = team {
        return Some((*p, source.clone()));
    }
    PRICES.iter().find(|(id, _, _)| *id == gpu_id).map(|(_, p, text)| (*p, (*text).to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which instance-catalog GPU model names a catalog GPU id sells as (build.rs uses the same).
    const INSTANCE_GPU_NAMES: [(&str, &str); 10] = include!("instance_gpu_names.rs");

    /// The rule, over the typed instance catalog.
    fn cheapest(gpu_id: &str) -> Option<(f64, String)> {
        let name = INSTANCE_GPU_NAMES.iter().find(|(id, _)| *id == gpu_id)?.1;
        crate::catalog::instances::all()
            .iter()
            .filter(|i| {
                i.gpu_model == name
                    && i.price_date
                        .as_deref()
                        .is_some_and(|d| d.len() == 10 && d.chars().filter(char::is_ascii_digit).count() == 8)
            })
            .filter_map(|i| i.price_per_gpu_hour().map(|p| (p, i)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(p, i)| {
                let text = format!(
                    "{} {} ({}, {}): ${:.4}/h ÷ {}",
                    i.provider,
                    i.instance,
                    i.price_region.as_deref().unwrap_or("-"),
                    i.price_date.as_deref().unwrap_or(""),
                    i.price_usd_per_hour.unwrap_or(0.0),
                    i.gpu_count.unwrap_or(1)
                );
                (p, text)
            })
    }

    #[test]
    fn generated_table_follows_the_rule() {
        let mut priced = 0;
        for g in crate::catalog::gpus::all() {
            assert_eq!(default_price_per_gpu_hour(&g.id), cheapest(&g.id), "{}", g.id);
            priced += usize::from(cheapest(&g.id).is_some());
        }
        assert_eq!(PRICES.len(), priced);
        assert!(priced >= 5, "{priced}");
    }

    #[test]
    fn prices_come_from_dated_instances() {
        let (p, src) = default_price_per_gpu_hour("h100-sxm").unwrap();
        assert!((p - 6.88).abs() < 1e-9, "{p} {src}");
        assert!(default_price_per_gpu_hour("t4").is_none());
    }
}
