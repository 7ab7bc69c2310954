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

/// A scalar, list or enum read by serde, its error classified as the derives' errors were.
pub fn de<T: DeserializeOwned>(v: &Value) -> Read<T> {
    serde_json::from_value(v.clone()).map_err(|e| classify_serde(&e))
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
    let got = match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        // serde_json writes a float in its shortest form (`1e+300`, `4096.0`), as Display does.
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "map".to_owned(),
    };
    ErrorKind::WrongType { expected, got }
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
