fn main() {
    // A panic must end in one line and exit code 3, not a backtrace and 101.
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!(
            "guardscope: bug{at}: {info}",
            info = info.payload_as_str().unwrap_or("panic")
        );
    }));
    std::process::exit(guardscope::cli::run(std::env::args_os()));
}
