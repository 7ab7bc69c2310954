//! UI strings, one value per language.
