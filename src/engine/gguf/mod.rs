//! llama.cpp's files: a GGUF file's header ([`read`]) read as a model ([`model`]), and a catalog
//! model written as llama.cpp's converter and quantizer would write it ([`layout`], [`mix`]).
//! Both give a model's tensor table ([`crate::engine::model::tensors`]); its tensors' types are
//! number formats, a layer below: ggml's tensor types ([`crate::engine::precision::ggml_type`])
//! and llama.cpp's file types, the mixes `llama-quantize` writes
//! ([`crate::engine::precision::file_type`]).
//!
//! A catalog model in a file type (`weight_dtype: "q4_k_m"`) becomes the tensors llama.cpp's
//! converter would write ([`layout`]), each typed by the quantizer's rules ([`mix`]); a GGUF
//! file's header ([`read`]) gives the tensors and their types directly ([`model`]). Either way
//! the weights are the exact sum of the tensors' bytes, split by layer for partial offload.

pub mod layout;
pub mod mix;
pub mod model;
pub mod read;
