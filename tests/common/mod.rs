//! Shared by the integration tests: run the built `gpu-primer` binary.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `gpu-primer estimate -` with `input` on stdin: (exit code, stdout, stderr).
pub fn estimate(input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpu-primer"))
        .args(["estimate", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gpu-primer binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("stdin accepts the scenario");
    let out = child.wait_with_output().expect("gpu-primer exits");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}
