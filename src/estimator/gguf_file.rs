//! A GGUF file as the estimator's model: how much of the file to read, and what the header
//! becomes. Reading is the browser's (`File.slice`, a few megabytes of a file of gigabytes,
//! nothing uploaded) or the command line's; what the bytes mean is here, tested natively.

use crate::engine::gguf::model::{config_from_header, MissingKey};
use crate::engine::gguf::read::{read_header, GgufError};
use serde_json::Value;

/// The first read: 2 MiB holds the header of most files (a 128K-token vocabulary is ~2.5 MB).
pub const FIRST_READ: u64 = 2 << 20;
/// The most this reader will read for a header (Llama 3's merges are ~5 MB).
pub const MAX_HEADER: u64 = 64 << 20;

/// Why a GGUF file cannot be the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GgufLoadError {
    /// The file itself (not GGUF, truncated, damaged).
    File(GgufError),
    /// The header names no architecture the engine can size (the missing key).
    Metadata(MissingKey),
    /// The header is larger than the reader reads.
    HeaderTooLarge { read: u64 },
    /// The browser or the file system could not read it.
    Unreadable,
}

/// The next read length after `read` bytes when the header needs `at_least`: at least double,
/// never past the file or [`MAX_HEADER`]. `None` when nothing more can be read.
pub fn next_read(read: u64, at_least: u64, size: u64) -> Option<u64> {
    let next = at_least.max(read.saturating_mul(2)).min(size).min(MAX_HEADER);
    (next > read).then_some(next)
}

/// What the first `bytes` of a file of `size` bytes give: the model's config (a Hugging Face
/// style object with the file's tensors under `gguf`), or how many bytes to read next, or why
/// the file cannot be used.
pub fn model_from_prefix(bytes: &[u8], size: u64) -> Result<Value, Step> {
    match read_header(bytes, size) {
        Ok(h) => config_from_header(&h).map_err(|m| Step::Failed(GgufLoadError::Metadata(m))),
        Err(GgufError::NeedMore { at_least }) => match next_read(bytes.len() as u64, at_least, size) {
            Some(n) => Err(Step::Read(n)),
            None => Err(Step::Failed(GgufLoadError::HeaderTooLarge { read: bytes.len() as u64 })),
        },
        Err(e) => Err(Step::Failed(GgufLoadError::File(e))),
    }
}

/// Read more, or stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Read this many bytes from the start and try again.
    Read(u64),
    Failed(GgufLoadError),
}

/// Reads a model from a file through `read(len)` (the first `len` bytes), growing the read as
/// the header asks: the whole loop, for readers that can block (the command line).
pub fn load_model(size: u64, mut read: impl FnMut(u64) -> Option<Vec<u8>>) -> Result<Value, GgufLoadError> {
    let mut len = FIRST_READ.min(size);
    loop {
        let bytes = read(len).ok_or(GgufLoadError::Unreadable)?;
        match model_from_prefix(&bytes, size) {
            Ok(v) => return Ok(v),
            Err(Step::Read(n)) => len = n,
            Err(Step::Failed(e)) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gguf::read::tests::{write_gguf, MetaIn};
    use crate::engine::precision::ggml_type::GgmlType;

    fn file(tokens: usize) -> Vec<u8> {
        write_gguf(
            &[
                ("general.architecture", MetaIn::Str("llama")),
                ("llama.block_count", MetaIn::U32(1)),
                ("llama.embedding_length", MetaIn::U32(64)),
                ("llama.attention.head_count", MetaIn::U32(4)),
                ("tokenizer.ggml.tokens", MetaIn::Strings(tokens)),
            ],
            &[
                ("token_embd.weight", &[64, 16], GgmlType::Q8_0),
                ("blk.0.attn_q.weight", &[64, 64], GgmlType::Q8_0),
            ],
        )
    }

    #[test]
    fn a_header_larger_than_the_first_read_is_read_in_steps() {
        // 400,000 tokens of the tokenizer take ~4 MB: more than the first 2 MiB.
        let f = file(400_000);
        let mut reads = Vec::new();
        let v = load_model(f.len() as u64, |n| {
            reads.push(n);
            Some(f[..n as usize].to_vec())
        })
        .unwrap();
        assert_eq!(v["num_hidden_layers"], 1);
        assert_eq!(reads.first(), Some(&FIRST_READ));
        assert!(reads.len() >= 2 && reads.windows(2).all(|w| w[1] > w[0]), "{reads:?}");
    }

    #[test]
    fn each_failure_is_named() {
        let f = file(10);
        let short = f.len() as u64 - 8;
        assert!(matches!(
            load_model(short, |n| Some(f[..n as usize].to_vec())),
            Err(GgufLoadError::File(GgufError::TruncatedData { .. }))
        ));
        assert_eq!(
            load_model(4, |_| Some(b"{\"a\"".to_vec())),
            Err(GgufLoadError::File(GgufError::NotGguf { start: "{\"a\"".into() }))
        );
        assert_eq!(load_model(100, |_| None), Err(GgufLoadError::Unreadable));
        let no_heads = write_gguf(
            &[("general.architecture", MetaIn::Str("llama"))],
            &[("output.weight", &[32, 2], GgmlType::Q8_0)],
        );
        assert!(matches!(
            load_model(no_heads.len() as u64, |n| Some(no_heads[..n as usize].to_vec())),
            Err(GgufLoadError::Metadata(_))
        ));
        assert_eq!(next_read(MAX_HEADER, MAX_HEADER + 10, u64::MAX), None);
    }
}
