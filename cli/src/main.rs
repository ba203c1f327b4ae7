//! `oauth1`: sign one request, percent-encode, percent-decode, send, explain.
//! The whole tool is the `oauth1_cli` library; this is its entry point.

fn main() -> std::process::ExitCode {
    oauth1_cli::run()
}
