//! Hand-written readers of the Scenario's and the GPU's JSON objects.
//!
//! serde's derived deserializers for `Scenario` and `Gpu` were the largest functions in the wasm
//! (about 30 KB before compression); these readers walk a `serde_json::Value` field by field and
//! accept exactly what the derives accepted, with the same defaults and the same typed errors:
//! scalars, lists and enums are still read by serde (`de`), so their errors are serde's, classified
//! by [`classify_serde`]; structs follow the derive's rules (`#[serde(default,
//! deny_unknown_fields)]`: keys in order, unknown keys named, or a list read by position). A test
//! in `scenario.rs` compares them with the derives (kept for tests only) on many inputs.

use super::error::{classify_serde, ErrorKind, Expected};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A value read from JSON, or what is wrong with it.
pub type Read<T> = Result<T, ErrorKind>;

/// A scalar, list or enum read by serde, its error classified as the derives' errors were. A
/// number written with an exponent or a fraction that is a whole number in the integers' range
/// (`48e9`, `4096.0`) is read as that integer, so integer fields take it (serde alone refuses a
/// float for a `u64`); a float field reads it as before.
pub fn de<T: DeserializeOwned>(v: &Value) -> Read<T> {
    serde_json::from_value(whole_numbers_as_integers(v)).map_err(|e| classify_serde(&e))
}

/// [`whole_number_as_integer`] through lists and objects.
pub fn whole_numbers_as_integers(v: &Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.iter().map(whole_numbers_as_integers).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, x)| (k.clone(), whole_numbers_as_integers(x))).collect())
        }
        other => whole_number_as_integer(other),
    }
}

/// `v` with a whole float number in `i64`/`u64` range turned into that integer (other values as
/// they are).
pub fn whole_number_as_integer(v: &Value) -> Value {
    if let Value::Number(n) = v {
        if let Some(f) = n.as_f64().filter(|f| n.is_f64() && f.is_finite() && f.fract() == 0.0) {
            // 2^64 and -2^63 are exact in f64; the range checks keep the casts exact.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
                return Value::from(f as u64);
            } else if (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
                return Value::from(f as i64);
            }
        }
    }
    v.clone()
}

/// `null` is `None`, anything else is read by `read` (serde's rule for `Option`).
pub fn opt<T>(v: &Value, read: impl FnOnce(&Value) -> Read<T>) -> Read<Option<T>> {
    if v.is_null() {
        Ok(None)
    } else {
        read(v).map(Some)
    }
}

/// A value of the wrong type, described as serde describes it (`"x"`, `5`, `1.5`, `null`, ...).
pub fn wrong_type(v: &Value, expected: Expected) -> ErrorKind {
    // A whole number is described as the integer it is read as (see `de`).
    let got = match &whole_number_as_integer(v) {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        // serde_json writes a float in its shortest form (`1e+300`, `4096.0`), as Display does.
        Value::Number(n) => n.to_string(),
        Value::String(s) => quoted(s),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "map".to_owned(),
    };
    ErrorKind::WrongType { expected, got }
}

/// A string in double quotes with Rust's escapes, as `{s:?}` writes it (spelled out: the wasm
/// build formats no `Debug`, scripts/env.sh `-Zfmt-debug=none`): each character as
/// `char::escape_debug` writes it, except a single quote, which a string's Debug leaves alone.
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '\'' {
            out.push(c);
        } else {
            out.extend(c.escape_debug());
        }
    }
    out.push('"');
    out
}

/// A struct read like serde's derive with `#[serde(default, deny_unknown_fields)]`: an object's
/// keys in order, each given to `set` (which says whether it knows the key), or a list's items by
/// position in `names`. The first bad key or value is the error.
pub fn fields(v: &Value, names: &[&str], mut set: impl FnMut(&str, &Value) -> Read<bool>) -> Read<()> {
    match v {
        Value::Object(map) => {
            for (key, value) in map {
                if !set(key, value)? {
                    return Err(ErrorKind::UnknownKey {
                        key: key.clone(),
                        known: names.iter().map(|n| (*n).to_owned()).collect(),
                    });
                }
            }
            Ok(())
        }
        Value::Array(items) => {
            for (name, value) in names.iter().zip(items) {
                set(name, value)?;
            }
            if items.len() > names.len() {
                return Err(ErrorKind::Invalid {
                    detail: format!("invalid length {}, expected fewer elements in array", items.len()),
                });
            }
            Ok(())
        }
        other => Err(wrong_type(other, Expected::Object)),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoted_is_the_debug_form() {
        for s in
            ["", "fp8", "a\"b", "it's", "back\\slash", "tab\there\nnew", "\u{7}\u{301}é中文", "\u{200b}x"]
        {
            assert_eq!(super::quoted(s), format!("{s:?}"));
        }
    }
}
