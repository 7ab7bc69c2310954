//! Reading the embedded catalog files field by field from a `serde_json::Value`.
//!
//! serde's derived deserializers for the catalog's entry types cost the wasm several KB each;
//! these readers take what the derives took (required fields present and of their type, optional
//! ones absent or `null`), and an entry that breaks that makes the whole file unreadable, as it
//! did with serde. The tests of each catalog compare the two on the embedded data.

use serde_json::{Map, Value};

/// One JSON object of a catalog file.
#[derive(Clone, Copy, Debug)]
pub struct Obj<'a>(&'a Map<String, Value>);

impl<'a> Obj<'a> {
    pub fn of(v: &'a Value) -> Option<Obj<'a>> {
        v.as_object().map(Obj)
    }

    /// A required field read by `read` (`None`: absent or of another type).
    pub fn req<T>(self, key: &str, read: impl FnOnce(&'a Value) -> Option<T>) -> Option<T> {
        self.0.get(key).and_then(read)
    }

    /// An optional field: absent or `null` is `Some(None)`, a value of another type `None`.
    pub fn opt<T>(self, key: &str, read: impl FnOnce(&'a Value) -> Option<T>) -> Option<Option<T>> {
        match self.0.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(v) => read(v).map(Some),
        }
    }

    pub fn text(self, key: &str) -> Option<String> {
        self.req(key, text)
    }

    pub fn opt_text(self, key: &str) -> Option<Option<String>> {
        self.opt(key, text)
    }

    /// A list of strings that may be absent (empty then): the research notes, which the wasm's
    /// copy of the catalog leaves out (`build.rs`, `NOT_IN_WASM`).
    pub fn opt_texts(self, key: &str) -> Option<Vec<String>> {
        self.opt(key, |v| v.as_array()?.iter().map(text).collect()).map(Option::unwrap_or_default)
    }
}

pub fn text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_owned)
}

pub fn u32_of(v: &Value) -> Option<u32> {
    v.as_u64().and_then(|n| u32::try_from(n).ok())
}

/// The entries of a list read by `read`; `None` when any entry is unreadable.
pub fn list<'a, T>(v: &'a Value, read: impl FnMut(&'a Value) -> Option<T>) -> Option<Vec<T>> {
    v.as_array()?.iter().map(read).collect()
}
