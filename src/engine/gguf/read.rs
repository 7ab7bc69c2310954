//! Reads a GGUF file's header: its metadata and its tensor table, nothing of the weights.
//!
//! # Format
//! Little-endian: the magic `GGUF`, a version (2 or 3), the tensor count and the metadata count
//! (u64 each), then the metadata (a key string, a value type u32, the value), then one entry
//! per tensor (a name, the number of dimensions u32, each dimension u64, the ggml type u32, the
//! data offset u64). A string is a u64 length and that many UTF-8 bytes; an array is an element
//! type u32, a u64 count and the elements. The tensor data starts at the next multiple of
//! `general.alignment` (32 by default). Source: ggml's `docs/gguf.md` and `gguf_init_from_file`
//! in `ggml/src/gguf.cpp` (ggml-org/llama.cpp).
//!
//! The reader works on the first bytes of a file: when they end before the header does it asks
//! for more ([`GgufError::NeedMore`]), so a browser reads a few megabytes of a many-gigabyte
//! file. Every count and length is checked against what the file can hold before anything is
//! allocated: a damaged file gets an error that names what is wrong and where.

use crate::engine::precision::ggml_type::GgmlType;
use serde::Serialize;

/// The most tensors and metadata entries a header may declare (llama.cpp's largest models
/// have a few thousand tensors).
const MAX_ENTRIES: u64 = 1_000_000;
/// The longest string a header may hold (a chat template is tens of kilobytes).
const MAX_STRING: u64 = 64 << 20;
/// The most elements an array may hold (a tokenizer's merges are a few hundred thousand).
const MAX_ARRAY: u64 = 100_000_000;
/// Numbers kept of a numeric array (per-layer head counts, sliding-window patterns).
const KEPT_ARRAY_VALUES: u64 = 4096;

/// A metadata value, as much of it as the engine uses.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Meta {
    Int(i128),
    Float(f64),
    Bool(bool),
    Text(String),
    /// An array: its length, and its values when they are numbers (the first few thousand).
    Array {
        len: u64,
        numbers: Vec<f64>,
    },
}

impl Meta {
    /// The value as a whole number (a float that is whole counts).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Meta::Int(i) => u64::try_from(*i).ok(),
            Meta::Bool(b) => Some(u64::from(*b)),
            Meta::Float(f) if f.fract() == 0.0 && *f >= 0.0 && *f < 1.8e19 => format!("{f:.0}").parse().ok(),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Meta::Int(i) => Some(*i as f64),
            Meta::Float(f) => Some(*f),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Meta::Text(s) => Some(s),
            _ => None,
        }
    }
}

/// One tensor of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TensorInfo {
    pub name: String,
    /// `ne[0], ne[1], …` (row length first).
    pub dims: Vec<u64>,
    pub ty: GgmlType,
    /// Offset of its data from the start of the data section.
    pub offset: u64,
}

impl TensorInfo {
    /// Elements: the product of the dimensions.
    pub fn elements(&self) -> u128 {
        self.dims.iter().fold(1u128, |n, d| n.saturating_mul(u128::from(*d)))
    }
}

/// A GGUF file's header.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GgufHeader {
    pub version: u32,
    pub metadata: Vec<(String, Meta)>,
    pub tensors: Vec<TensorInfo>,
    /// Where the tensor data starts.
    pub data_offset: u64,
}

impl GgufHeader {
    /// A metadata value by key.
    pub fn get(&self, key: &str) -> Option<&Meta> {
        self.metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// What is wrong with a file, or that more of it is needed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GgufError {
    /// The bytes read so far end inside the header; read at least this many and try again.
    NeedMore { at_least: u64 },
    /// The file does not start with `GGUF` (what it starts with, as text or hex).
    NotGguf { start: String },
    /// A GGUF version this reader does not read (1 is the 2023 format; a byte-swapped number
    /// is a big-endian file).
    UnsupportedVersion { version: u32 },
    /// The file ends inside its header.
    TruncatedHeader { size: u64, needed: u64 },
    /// The file ends before a tensor's data does (the download was cut short).
    TruncatedData { size: u64, needed: u64, tensor: String },
    /// A count or length larger than the file could hold.
    Corrupt { at: u64, what: &'static str },
    /// A metadata value type number GGUF does not define.
    BadValueType { at: u64, value_type: u32 },
    /// A tensor type number ggml does not define (or one whose support was removed).
    UnknownTensorType { tensor: String, type_id: u32 },
    /// A tensor with no dimensions, more than four, or a zero dimension.
    BadShape { tensor: String },
    /// A row that does not split into whole blocks of its type.
    RowNotWholeBlocks { tensor: String, row: u64, block: u32 },
    /// The file holds no tensors.
    NoTensors,
    /// One part of a file split by `llama-gguf-split` (`split.count` > 1, `split.no` counting from
    /// 0): its header lists only that part's tensors, so the model would come out too small.
    Split { part: u64, count: u64 },
}

/// A cursor over the bytes read so far.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The whole file's size.
    file_size: u64,
}

type R<T> = Result<T, GgufError>;

impl Cursor<'_> {
    fn pos(&self) -> u64 {
        self.at as u64
    }

    /// The next `n` bytes, or what is missing.
    fn take(&mut self, n: u64) -> R<&[u8]> {
        let end = self.pos().saturating_add(n);
        if end > self.file_size {
            return Err(GgufError::TruncatedHeader { size: self.file_size, needed: end });
        }
        let end_usize =
            usize::try_from(end).map_err(|_| GgufError::Corrupt { at: self.pos(), what: "length" })?;
        match self.bytes.get(self.at..end_usize) {
            Some(s) => {
                self.at = end_usize;
                Ok(s)
            }
            None => Err(GgufError::NeedMore { at_least: end }),
        }
    }

    fn array<const N: usize>(&mut self) -> R<[u8; N]> {
        let s = self.take(N as u64)?;
        let mut out = [0u8; N];
        out.copy_from_slice(s);
        Ok(out)
    }

    fn u32(&mut self) -> R<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> R<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A count of items of at least `min_each` bytes: more than `plausible` is damage; more than
    /// the rest of the file holds, a file cut short.
    fn count(&mut self, min_each: u64, plausible: u64, what: &'static str) -> R<u64> {
        let at = self.pos();
        let n = self.u64()?;
        if n > plausible {
            return Err(GgufError::Corrupt { at, what });
        }
        let needed = self.pos().saturating_add(n.saturating_mul(min_each.max(1)));
        if needed > self.file_size {
            return Err(GgufError::TruncatedHeader { size: self.file_size, needed });
        }
        Ok(n)
    }

    fn string(&mut self) -> R<String> {
        let n = self.count(1, MAX_STRING, "string length")?;
        let at = self.pos();
        let s = self.take(n)?;
        String::from_utf8(s.to_vec()).map_err(|_| GgufError::Corrupt { at, what: "text (not UTF-8)" })
    }

    /// A string only skipped over (array elements).
    fn skip_string(&mut self) -> R<()> {
        let n = self.count(1, MAX_STRING, "string length")?;
        self.take(n).map(|_| ())
    }
}

/// Size in bytes of a scalar value type, `None` for string and array.
fn scalar_size(value_type: u32) -> Option<u64> {
    match value_type {
        0 | 1 | 7 => Some(1),
        2 | 3 => Some(2),
        4..=6 => Some(4),
        10..=12 => Some(8),
        _ => None,
    }
}

fn scalar(c: &mut Cursor<'_>, value_type: u32) -> R<Meta> {
    Ok(match value_type {
        0 => Meta::Int(i128::from(c.array::<1>()?[0])),
        1 => Meta::Int(i128::from(i8::from_le_bytes(c.array()?))),
        2 => Meta::Int(i128::from(u16::from_le_bytes(c.array()?))),
        3 => Meta::Int(i128::from(i16::from_le_bytes(c.array()?))),
        4 => Meta::Int(i128::from(c.u32()?)),
        5 => Meta::Int(i128::from(i32::from_le_bytes(c.array()?))),
        6 => Meta::Float(f64::from(f32::from_le_bytes(c.array()?))),
        7 => Meta::Bool(c.array::<1>()?[0] != 0),
        10 => Meta::Int(i128::from(c.u64()?)),
        11 => Meta::Int(i128::from(i64::from_le_bytes(c.array()?))),
        12 => Meta::Float(f64::from_le_bytes(c.array()?)),
        other => return Err(GgufError::BadValueType { at: c.pos(), value_type: other }),
    })
}

fn value(c: &mut Cursor<'_>, value_type: u32) -> R<Meta> {
    match value_type {
        8 => Ok(Meta::Text(c.string()?)),
        9 => array(c),
        t => scalar(c, t),
    }
}

/// An array: strings skipped, numbers kept up to [`KEPT_ARRAY_VALUES`].
fn array(c: &mut Cursor<'_>) -> R<Meta> {
    let at = c.pos();
    let elem = c.u32()?;
    match elem {
        8 => {
            let len = c.count(8, MAX_ARRAY, "array length")?;
            for _ in 0..len {
                c.skip_string()?;
            }
            Ok(Meta::Array { len, numbers: Vec::new() })
        }
        9 => Err(GgufError::Corrupt { at, what: "array of arrays" }),
        t => {
            let size = scalar_size(t).ok_or(GgufError::BadValueType { at, value_type: t })?;
            let len = c.count(size, MAX_ARRAY, "array length")?;
            let mut numbers = Vec::new();
            for i in 0..len {
                let v = scalar(c, t)?;
                if i < KEPT_ARRAY_VALUES {
                    numbers.push(v.as_f64().unwrap_or(if v == Meta::Bool(true) { 1.0 } else { 0.0 }));
                }
            }
            Ok(Meta::Array { len, numbers })
        }
    }
}

/// The header's start: magic and version.
fn preamble(c: &mut Cursor<'_>) -> R<u32> {
    let magic: [u8; 4] = c.array().map_err(|e| match e {
        GgufError::TruncatedHeader { .. } => GgufError::NotGguf { start: String::new() },
        other => other,
    })?;
    if &magic != b"GGUF" {
        let start = if magic.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
            String::from_utf8_lossy(&magic).into_owned()
        } else {
            magic.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
        };
        return Err(GgufError::NotGguf { start });
    }
    let version = c.u32()?;
    if !(2..=3).contains(&version) {
        return Err(GgufError::UnsupportedVersion { version });
    }
    Ok(version)
}

fn metadata(c: &mut Cursor<'_>, n: u64) -> R<Vec<(String, Meta)>> {
    let mut out = Vec::new();
    for _ in 0..n {
        let key = c.string()?;
        let t = c.u32()?;
        out.push((key, value(c, t)?));
    }
    Ok(out)
}

fn tensor_info(c: &mut Cursor<'_>) -> R<TensorInfo> {
    let name = c.string()?;
    let n_dims = c.u32()?;
    if !(1..=4).contains(&n_dims) {
        return Err(GgufError::BadShape { tensor: name });
    }
    let mut dims = Vec::new();
    for _ in 0..n_dims {
        dims.push(c.u64()?);
    }
    if dims.contains(&0) {
        return Err(GgufError::BadShape { tensor: name });
    }
    let type_id = c.u32()?;
    let ty =
        GgmlType::from_id(type_id).ok_or(GgufError::UnknownTensorType { tensor: name.clone(), type_id })?;
    let row = dims.first().copied().unwrap_or(1);
    if !ty.fits_row(row) {
        return Err(GgufError::RowNotWholeBlocks { tensor: name, row, block: ty.block_elements() });
    }
    let offset = c.u64()?;
    Ok(TensorInfo { name, dims, ty, offset })
}

/// Reads the header from `bytes`, the first bytes of a file of `file_size` bytes. Checks that
/// the file is long enough for every tensor's data.
pub fn read_header(bytes: &[u8], file_size: u64) -> Result<GgufHeader, GgufError> {
    let mut c = Cursor { bytes, at: 0, file_size: file_size.max(bytes.len() as u64) };
    let version = preamble(&mut c)?;
    // A tensor entry takes at least 8 + 4 + 8 + 4 + 8 bytes; a metadata entry 8 + 4 + 1.
    let n_tensors = c.count(32, MAX_ENTRIES, "tensor count")?;
    let n_meta = c.count(13, MAX_ENTRIES, "metadata count")?;
    let metadata = metadata(&mut c, n_meta)?;
    split_part(&metadata)?;
    let mut tensors = Vec::new();
    for _ in 0..n_tensors {
        tensors.push(tensor_info(&mut c)?);
    }
    if tensors.is_empty() {
        return Err(GgufError::NoTensors);
    }
    let align = metadata
        .iter()
        .find(|(k, _)| k == "general.alignment")
        .and_then(|(_, v)| v.as_u64())
        .filter(|a| *a > 0 && a.is_power_of_two())
        .unwrap_or(32);
    let data_offset = c.pos().div_ceil(align).saturating_mul(align);
    let header = GgufHeader { version, metadata, tensors, data_offset };
    check_data(&header, c.file_size)?;
    Ok(header)
}

/// A part of a split file is refused: its tensors are not the model's (llama.cpp's
/// `gguf-split.cpp` writes `split.no`, `split.count` and `split.tensors.count` in every part).
fn split_part(metadata: &[(String, Meta)]) -> R<()> {
    let get = |key: &str| metadata.iter().find(|(k, _)| k == key).and_then(|(_, v)| v.as_u64());
    match get("split.count") {
        Some(count) if count > 1 => {
            Err(GgufError::Split { part: get("split.no").unwrap_or(0).saturating_add(1), count })
        }
        _ => Ok(()),
    }
}

/// Every tensor's data must end inside the file.
fn check_data(h: &GgufHeader, file_size: u64) -> R<()> {
    for t in &h.tensors {
        let bytes = u64::try_from(t.ty.bytes_for(t.elements())).unwrap_or(u64::MAX);
        let end = h.data_offset.saturating_add(t.offset).saturating_add(bytes);
        if end > file_size {
            return Err(GgufError::TruncatedData { size: file_size, needed: end, tensor: t.name.clone() });
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Writes a GGUF v3 header (and zeroed data) for tests.
    pub(crate) fn write_gguf(meta: &[(&str, MetaIn)], tensors: &[(&str, &[u64], GgmlType)]) -> Vec<u8> {
        let mut b = Vec::new();
        let s = |b: &mut Vec<u8>, t: &str| {
            b.extend((t.len() as u64).to_le_bytes());
            b.extend(t.as_bytes());
        };
        b.extend(b"GGUF");
        b.extend(3u32.to_le_bytes());
        b.extend((tensors.len() as u64).to_le_bytes());
        b.extend((meta.len() as u64).to_le_bytes());
        for (k, v) in meta {
            s(&mut b, k);
            match v {
                MetaIn::U32(x) => {
                    b.extend(4u32.to_le_bytes());
                    b.extend(x.to_le_bytes());
                }
                MetaIn::F32(x) => {
                    b.extend(6u32.to_le_bytes());
                    b.extend(x.to_le_bytes());
                }
                MetaIn::Str(x) => {
                    b.extend(8u32.to_le_bytes());
                    s(&mut b, x);
                }
                MetaIn::Strings(n) => {
                    b.extend(9u32.to_le_bytes());
                    b.extend(8u32.to_le_bytes());
                    b.extend((*n as u64).to_le_bytes());
                    for i in 0..*n {
                        s(&mut b, &format!("t{i}"));
                    }
                }
            }
        }
        let mut offset = 0u64;
        for (name, dims, ty) in tensors {
            s(&mut b, name);
            b.extend((dims.len() as u32).to_le_bytes());
            for d in *dims {
                b.extend(d.to_le_bytes());
            }
            b.extend(ty.id().to_le_bytes());
            b.extend(offset.to_le_bytes());
            let n: u128 = dims.iter().map(|d| u128::from(*d)).product();
            offset += (ty.bytes_for(n) as u64).div_ceil(32) * 32;
        }
        let start = (b.len() as u64).div_ceil(32) * 32;
        b.resize((start + offset) as usize, 0);
        b
    }

    pub(crate) enum MetaIn {
        U32(u32),
        F32(f32),
        Str(&'static str),
        Strings(usize),
    }

    fn tiny() -> Vec<u8> {
        write_gguf(
            &[
                ("general.architecture", MetaIn::Str("llama")),
                ("llama.block_count", MetaIn::U32(1)),
                ("tokenizer.ggml.tokens", MetaIn::Strings(5)),
                ("llama.rope.freq_base", MetaIn::F32(500000.0)),
            ],
            &[
                ("token_embd.weight", &[64, 5], GgmlType::Q8_0),
                ("blk.0.attn_norm.weight", &[64], GgmlType::F32),
            ],
        )
    }

    #[test]
    fn reads_a_small_file() {
        let b = tiny();
        let h = read_header(&b, b.len() as u64).unwrap();
        assert_eq!(h.version, 3);
        assert_eq!(h.get("general.architecture").and_then(Meta::as_str), Some("llama"));
        assert_eq!(h.get("llama.block_count").and_then(Meta::as_u64), Some(1));
        assert_eq!(h.get("tokenizer.ggml.tokens"), Some(&Meta::Array { len: 5, numbers: vec![] }));
        assert_eq!(h.tensors.len(), 2);
        assert_eq!(h.tensors[0].ty, GgmlType::Q8_0);
        assert_eq!(h.tensors[0].elements(), 320);
    }

    #[test]
    fn a_short_read_asks_for_more_and_a_short_file_is_truncated() {
        let b = tiny();
        let header_end = read_header(&b, b.len() as u64).unwrap().data_offset as usize - 20;
        let cut = &b[..header_end];
        assert!(matches!(read_header(cut, b.len() as u64), Err(GgufError::NeedMore { .. })));
        let n = header_end as u64;
        assert!(matches!(read_header(cut, n), Err(GgufError::TruncatedHeader { size, .. }) if size == n));
        // A plausible count the rest of the file cannot hold: a file cut short; an implausible
        // one: damage.
        assert!(matches!(read_header(&b[..40], 40), Err(GgufError::TruncatedHeader { size: 40, .. })));
        let data_cut = &b[..b.len() - 10];
        assert!(matches!(
            read_header(data_cut, data_cut.len() as u64),
            Err(GgufError::TruncatedData { ref tensor, .. }) if tensor == "blk.0.attn_norm.weight"
        ));
    }

    #[test]
    fn a_part_of_a_split_file_is_refused_and_a_whole_one_read() {
        let part = |count| {
            write_gguf(
                &[
                    ("general.architecture", MetaIn::Str("llama")),
                    ("split.no", MetaIn::U32(1)),
                    ("split.count", MetaIn::U32(count)),
                ],
                &[("blk.0.attn_q.weight", &[32, 32], GgmlType::F16)],
            )
        };
        let b = part(3);
        assert_eq!(read_header(&b, b.len() as u64), Err(GgufError::Split { part: 2, count: 3 }));
        let b = part(1);
        assert!(read_header(&b, b.len() as u64).is_ok());
    }

    #[test]
    fn foreign_and_damaged_files_say_what_is_wrong() {
        assert_eq!(
            read_header(b"PK\x03\x04rest", 8),
            Err(GgufError::NotGguf { start: "50 4b 03 04".into() })
        );
        assert_eq!(read_header(b"{\"a\"", 4), Err(GgufError::NotGguf { start: "{\"a\"".into() }));
        let mut b = tiny();
        b[4] = 1;
        assert_eq!(read_header(&b, b.len() as u64), Err(GgufError::UnsupportedVersion { version: 1 }));
        let mut b = tiny();
        b[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(read_header(&b, b.len() as u64), Err(GgufError::Corrupt { .. })));
        assert_eq!(read_header(b"", 0), Err(GgufError::NotGguf { start: String::new() }));
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_give_a_header_or_an_error(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400)) {
            let _ = read_header(&bytes, bytes.len() as u64);
        }

        #[test]
        fn any_damage_to_a_good_file_gives_a_header_or_an_error(at in 0usize..200, byte in proptest::prelude::any::<u8>()) {
            let mut b = tiny();
            if at < b.len() { b[at] = byte; }
            let _ = read_header(&b, b.len() as u64);
        }
    }
}
