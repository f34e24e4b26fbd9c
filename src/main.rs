fn main() {
    // `run` turns a panic into one line and exit code 3 (see cli/panics.rs).
    std::process::exit(guardscope::cli::run(std::env::args_os()));
}
