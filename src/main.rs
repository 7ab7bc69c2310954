//! Entry point. On wasm32 it mounts the app; natively it is the `gpu-primer` command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    gpu_primer::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(cli::run(&args));
}
