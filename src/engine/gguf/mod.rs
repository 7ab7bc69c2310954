//! llama.cpp's formats: ggml's tensor types, llama.cpp's file types (the mixes `llama-quantize`
//! writes), a model as a table of typed tensors, and the header of a GGUF file.
//!
//! A catalog model in a file type (`weight_dtype: "q4_k_m"`) becomes the tensors llama.cpp's
//! converter would write ([`layout`]), each typed by the quantizer's rules ([`mix`]); a GGUF
//! file's header ([`read`]) gives the tensors and their types directly ([`model`]). Either way
//! the weights are the exact sum of the tensors' bytes ([`tensors`]), split by layer for
//! partial offload.

pub mod file_type;
pub mod ggml_type;
pub mod layout;
pub mod mix;
pub mod model;
pub mod read;
pub mod tensors;

pub use file_type::FileType;
pub use ggml_type::GgmlType;
pub use tensors::{Part, TensorTable};
